// React's escaping, so this HTML is what rendering the spans through React gave.
import { escapeHtml } from '../../shared/escape-html.js';
import { lexBash } from './bash.js';
import { lexJavaScript } from './javascript.js';
import { lexJson } from './json.js';
import { lexPython } from './python.js';
import { lexToml } from './toml.js';
import type { Token } from './tokens.js';

/**
 * The lexer of each highlighted language. They are pybook's own: the book's code is nine parts
 * Python and JavaScript, and a lexer written for what the book shows colours it in a few
 * milliseconds, where a general highlighter's grammars took a tenth of a cold build.
 */
const LEXERS: Record<string, (code: string) => Token[]> = {
  python: lexPython,
  javascript: (code) => lexJavaScript(code),
  typescript: (code) => lexJavaScript(code, true),
  bash: lexBash,
  json: lexJson,
  toml: lexToml,
};

/** Fence languages authors may use, mapped to the lexer that highlights them (null = plain). */
export const CODE_LANGUAGES: Record<string, string | null> = {
  python: 'python',
  py: 'python',
  javascript: 'javascript',
  js: 'javascript',
  mjs: 'javascript',
  typescript: 'typescript',
  ts: 'typescript',
  bash: 'bash',
  sh: 'bash',
  shell: 'bash',
  console: 'bash',
  json: 'json',
  toml: 'toml',
  ini: 'toml',
  yaml: null,
  yml: null,
  text: null,
  txt: null,
  plaintext: null,
  output: null,
};

/** Canonical language name for a fence label (py -> python, js -> javascript). */
export function canonicalLanguage(lang: string): string {
  return CODE_LANGUAGES[lang] ?? lang;
}

/**
 * Highlights code into HTML: one `span.code-line` per line, so that lines can be highlighted.
 * The result is a string, not a tree: a chapter's code would otherwise be thousands of nodes
 * that every later stage (tree walks, caching, React rendering) pays for. Every character of
 * the code is escaped, so no code can become markup.
 */
export function highlightToHtml(code: string, lang: string, highlighted: Set<number>): string {
  // Translations keep the examples: nine in ten Chinese code blocks are the English ones.
  const key = `${lang}\0${[...highlighted].join(',')}\0${code}`;
  let html = highlightedBlocks.get(key);
  if (html === undefined) {
    if (highlightedBlocks.size >= MAX_REMEMBERED_BLOCKS) highlightedBlocks.clear();
    html = highlight(code, lang, highlighted);
    highlightedBlocks.set(key, html);
  }
  return html;
}

const MAX_REMEMBERED_BLOCKS = 5000;
const highlightedBlocks = new Map<string, string>();

function highlight(code: string, lang: string, highlighted: Set<number>): string {
  const lexer = LEXERS[CODE_LANGUAGES[lang] ?? ''];
  const lineStart = (line: number) =>
    `<span class="${highlighted.has(line) ? 'code-line code-line-highlighted' : 'code-line'}">`;
  let line = 1;
  let html = lineStart(line);
  for (const { text, cls } of lexer ? lexer(code) : [{ text: code }]) {
    // A token that spans lines (a docstring) is closed at each line end and opened again on the
    // next line, so that every line is a complete `span.code-line` that keeps its colours.
    for (let start = 0; ;) {
      const end = text.indexOf('\n', start);
      const part = end === -1 ? (start ? text.slice(start) : text) : text.slice(start, end);
      if (part) html += cls ? `<span class="tok-${cls}">${escapeHtml(part)}</span>` : escapeHtml(part);
      if (end === -1) break;
      html += `\n</span>${lineStart(++line)}`;
      start = end + 1;
    }
  }
  return `${html}\n</span>`;
}
