import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ElementContent, Root } from 'hast';
import bash from 'highlight.js/lib/languages/bash';
import ini from 'highlight.js/lib/languages/ini';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import typescript from 'highlight.js/lib/languages/typescript';
// React's escaping, so this HTML is what rendering the spans through React gave.
import { escapeLikeReact } from '../shared/escape-like-react.js';

// lowlight's entry module re-exports every highlight.js grammar (about 190 modules, some 90 ms
// of every pybook start); the book needs six, so its factory is loaded from its own module.
const lowlightFactory = path.join(path.dirname(createRequire(import.meta.url).resolve('lowlight')), 'lib', 'index.js');
const { createLowlight } = (await import(pathToFileURL(lowlightFactory).href)) as typeof import('lowlight');
const lowlight = createLowlight({ bash, ini, javascript, json, python, typescript });

/** Fence languages authors may use, mapped to the grammar that highlights them (null = plain). */
export const CODE_LANGUAGES: Record<string, string | null> = {
  python: 'python', py: 'python',
  javascript: 'javascript', js: 'javascript', mjs: 'javascript',
  typescript: 'typescript', ts: 'typescript',
  bash: 'bash', sh: 'bash', shell: 'bash', console: 'bash',
  json: 'json', toml: 'ini', ini: 'ini', yaml: null, yml: null,
  text: null, txt: null, plaintext: null, output: null,
};

/** Canonical language name for a fence label (py -> python, js -> javascript). */
export function canonicalLanguage(lang: string): string {
  const grammar = CODE_LANGUAGES[lang];
  if (grammar === 'ini') return 'toml';
  return grammar ?? lang;
}

type Token = Root['children'][number] | ElementContent;

/**
 * Appends the HTML of lowlight's tokens to the current line. A token that spans lines (a
 * docstring) is closed at each line end and reopened on the next line, so every line is a
 * complete `span.code-line` that keeps its colours on its own.
 */
function emit(nodes: Token[], open: string[], lines: string[]) {
  // Nested tokens (an interpolation inside a string) become one span carrying all their classes.
  const classes = escapeLikeReact(open.join(' '));
  for (const node of nodes) {
    if (node.type === 'text') {
      node.value.split('\n').forEach((part, i) => {
        if (i > 0) lines.push('');
        if (part) lines[lines.length - 1] += classes ? `<span class="${classes}">${escapeLikeReact(part)}</span>` : escapeLikeReact(part);
      });
    } else if (node.type === 'element') {
      const own = (node.properties?.className as string[] | undefined) ?? [];
      emit(node.children, [...open, ...own], lines);
    }
  }
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
  const grammar = CODE_LANGUAGES[lang];
  const lines = [''];
  if (grammar) emit(lowlight.highlight(grammar, code).children, [], lines);
  else emit([{ type: 'text', value: code }], [], lines);
  return lines
    .map((line, i) => `<span class="${highlighted.has(i + 1) ? 'code-line code-line-highlighted' : 'code-line'}">${line}\n</span>`)
    .join('');
}
