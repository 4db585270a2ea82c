import type { Element, ElementContent, Root as HastRoot, Text } from 'hast';
import { createLowlight } from 'lowlight';
import bash from 'highlight.js/lib/languages/bash';
import ini from 'highlight.js/lib/languages/ini';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import typescript from 'highlight.js/lib/languages/typescript';

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

interface Segment { text: string; classes: string[] }

function flatten(nodes: ElementContent[] | HastRoot['children'], classes: string[], out: Segment[]) {
  for (const node of nodes) {
    if (node.type === 'text') out.push({ text: node.value, classes });
    else if (node.type === 'element') {
      const own = (node.properties?.className as string[] | undefined) ?? [];
      flatten(node.children, [...classes, ...own], out);
    }
  }
}

/**
 * Highlights code and returns one `span.code-line` per line, so that lines can be highlighted
 * and a token spanning several lines (a docstring) keeps its colour on each of them.
 */
export function highlightLines(code: string, lang: string, highlighted: Set<number>): Element[] {
  const grammar = CODE_LANGUAGES[lang];
  const segments: Segment[] = [];
  if (grammar) flatten(lowlight.highlight(grammar, code).children, [], segments);
  else segments.push({ text: code, classes: [] });

  const lines: ElementContent[][] = [[]];
  for (const segment of segments) {
    segment.text.split('\n').forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (!part) return;
      const text: Text = { type: 'text', value: part };
      lines[lines.length - 1].push(
        segment.classes.length ? { type: 'element', tagName: 'span', properties: { className: segment.classes }, children: [text] } : text,
      );
    });
  }
  return lines.map((children, i) => ({
    type: 'element',
    tagName: 'span',
    properties: { className: highlighted.has(i + 1) ? ['code-line', 'code-line-highlighted'] : ['code-line'] },
    children: [...children, { type: 'text', value: '\n' }],
  }));
}
