import type { Element, ElementContent, Properties } from 'hast';
import type { Code } from 'mdast';
import type { ContainerDirective } from 'mdast-util-directive';
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import type { State } from 'mdast-util-to-hast';
import { highlightToHtml } from './highlight.js';
import type { CodeMeta } from './plugins/code-blocks.js';

interface CodeBlockData { lang: string; canonical: string; meta: CodeMeta; output?: string }

/** A hast element named after the component; rehype-react maps it to the React component. */
function jsxElement(state: State, node: MdxJsxFlowElement | MdxJsxTextElement): Element {
  const properties: Properties = {};
  for (const attribute of node.attributes) {
    if (attribute.type === 'mdxJsxAttribute' && typeof attribute.value === 'string') properties[attribute.name] = attribute.value;
  }
  return { type: 'element', tagName: node.name ?? 'div', properties, children: state.all(node) as ElementContent[] };
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
  return { type: 'element', tagName: 'CodeBlock', properties, children: [] };
}

function admonition(state: State, node: ContainerDirective): Element {
  const props = (node.data?.hProperties ?? {}) as Properties;
  return { type: 'element', tagName: 'Admonition', properties: props, children: state.all(node) as ElementContent[] };
}

export const toHastHandlers = {
  code: codeBlock,
  containerDirective: admonition,
  mdxJsxFlowElement: jsxElement,
  mdxJsxTextElement: jsxElement,
};
