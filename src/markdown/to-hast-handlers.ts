import type { Element, Properties } from 'hast';
import type { Code } from 'mdast';
import type { ContainerDirective } from 'mdast-util-directive';
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import type { State } from 'mdast-util-to-hast';
import { highlightToHtml } from './highlight/index.js';
import type { CodeMeta } from './plugins/code-blocks.js';

interface CodeBlockData {
  lang: string;
  canonical: string;
  meta: CodeMeta;
  output?: string;
  exampleKey?: string;
  exerciseTests?: string;
  exerciseKey?: string;
}

/** A hast element named after the component; its React component in the registry (src/theme/content/components.ts) renders it. */
function jsxElement(state: State, node: MdxJsxFlowElement | MdxJsxTextElement): Element {
  const properties: Properties = {};
  for (const attribute of node.attributes) {
    if (attribute.type === 'mdxJsxAttribute' && typeof attribute.value === 'string')
      properties[attribute.name] = attribute.value;
  }
  return { type: 'element', tagName: node.name ?? 'div', properties, children: state.all(node) };
}

/** Characters that take two columns in a monospace font (CJK and full-width forms). */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/g;

/** How many monospace columns the longest line of `text` takes (tabs count four). */
export function longestLineWidth(text: string): number {
  let widest = 0;
  for (const line of text.split('\n')) {
    const expanded = line.replace(/\t/g, '    ');
    widest = Math.max(widest, expanded.length + (expanded.match(WIDE)?.length ?? 0));
  }
  return widest;
}

function codeBlock(_state: State, node: Code): Element {
  const data = (node.data as { codeBlock?: CodeBlockData } | undefined)?.codeBlock;
  const lang = data?.lang ?? 'text';
  const meta = data?.meta ?? { highlight: new Set<number>() };
  const properties: Properties = { lang: data?.canonical ?? lang };
  if (meta.title) properties.title = meta.title;
  if (data?.output !== undefined) properties.output = data.output.replace(/\s+$/, '');
  if (meta.raises) properties.raises = meta.raises;
  properties.codeHtml = highlightToHtml(node.value, lang, meta.highlight);
  // A comparison puts two blocks side by side only when both fit (see Compare.tsx).
  properties.width = longestLineWidth(node.value);
  // The code's height before the browser lays it out (deferred below the fold): see CodeBlock.
  properties.lines = node.value.split('\n').length;
  Object.assign(properties, runProperties(data));
  // Starter code gets the Check button; the tests it runs ride along (see theme/content/CodeBlock.tsx).
  if (data?.exerciseTests !== undefined)
    Object.assign(properties, { exerciseTests: data.exerciseTests, exerciseKey: data.exerciseKey });
  if (meta.exercise) properties.exercisePart = meta.exercise;
  return { type: 'element', tagName: 'CodeBlock', properties, children: [] };
}

/**
 * What the page needs to offer a Run button: the example's key in the browser-check record
 * (the build looks it up, see CodeBlock), or why it cannot run in a browser.
 */
function runProperties(data: CodeBlockData | undefined): Properties {
  const lang = data?.canonical;
  if (lang !== 'python' && lang !== 'javascript') return {};
  const meta = data!.meta;
  if (meta.norun !== undefined) return { cannotRun: meta.norun };
  if (meta.nobrowser !== undefined) return { cannotRun: meta.nobrowser };
  // pytest is not part of the Pyodide that the site ships.
  if (meta.pytest !== undefined) return { cannotRun: '', cannotRunPytest: true };
  // The key the code-blocks plugin made for the example (src/runner/browser-check-file.ts).
  return { exampleKey: data!.exampleKey };
}

function admonition(state: State, node: ContainerDirective): Element {
  const props = node.data?.hProperties ?? {};
  return { type: 'element', tagName: 'Admonition', properties: props, children: state.all(node) };
}

export const toHastHandlers = {
  code: codeBlock,
  containerDirective: admonition,
  mdxJsxFlowElement: jsxElement,
  mdxJsxTextElement: jsxElement,
};
