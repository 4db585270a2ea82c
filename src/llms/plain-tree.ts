import type { Code, Heading, Nodes, Paragraph, PhrasingContent, Root, RootContent } from 'mdast';
import type { ContainerDirective } from 'mdast-util-directive';
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import type { InterfaceStrings } from '../shared/i18n/types.js';
import { filled } from './template.js';

/**
 * What the code-blocks plugin leaves on a fenced block (src/markdown/plugins/code-blocks.ts):
 * as much of it as the Markdown needs.
 */
interface CodeBlockData {
  meta: { title?: string; exercise?: string };
  /** The ```output block that followed the block, taken into it. */
  output?: string;
}

export interface PlainTreeContext {
  strings: InterfaceStrings;
  /** The URL a link, image or definition has in the Markdown (see link-targets.ts). */
  url(node: Extract<Nodes, { url: string }>): string;
}

/** A `:::kind[title]` container as the admonitions plugin leaves it (src/markdown/plugins/admonitions.ts). */
type Admonition = ContainerDirective & { data?: { hProperties?: { kind?: string }; label?: Paragraph } };

/**
 * A compiled chapter's mdast as plain Markdown's mdast: what only the book's components could
 * show becomes text any Markdown reader shows. A comparison is its two code blocks, each under its
 * language's label; an output block stays an ```output block after its code; tabs are their
 * panels, each under its label; an admonition is a block quote led by its kind (and title); an
 * exercise's starter code and tests are labelled code blocks, and its hints and answer are
 * sections of their own, a heading below the section they are in. A trap (exercise="trap") is
 * never written: the code-blocks plugin has already taken it out of the tree, and a block still
 * marked so would be dropped here. Links and images get the URLs of `context.url`.
 *
 * The tree is not changed: the page's HTML is made from it after this.
 */
export function plainTree(tree: Root, context: PlainTreeContext): Root {
  const converter = new Converter(context);
  return { type: 'root', children: converter.all(tree.children) as RootContent[] };
}

class Converter {
  /** The depth of the last heading passed: a hint or answer is a section one below it. */
  private depth = 1;

  constructor(private readonly context: PlainTreeContext) {}

  all(nodes: readonly Nodes[]): Nodes[] {
    return nodes.flatMap((node) => this.one(node));
  }

  private one(node: Nodes): Nodes[] {
    switch (node.type) {
      case 'code':
        return this.code(node);
      case 'mdxJsxFlowElement':
        return this.component(node);
      case 'mdxJsxTextElement':
        return this.all(node.children);
      case 'containerDirective':
        return [this.admonition(node)];
      case 'link':
      case 'image':
      case 'definition':
        return [
          {
            ...node,
            url: this.context.url(node),
            ...('children' in node ? { children: this.all(node.children) } : {}),
          } as Nodes,
        ];
      case 'heading':
        this.depth = node.depth;
        return [{ ...node, children: this.all(node.children) } as Heading];
      // Never left in a compiled chapter (front matter, comments and these directives are taken out or made text).
      case 'yaml':
      case 'mdxjsEsm':
      case 'mdxFlowExpression':
      case 'mdxTextExpression':
      case 'leafDirective':
      case 'textDirective':
        return [];
      default:
        return 'children' in node ? [{ ...node, children: this.all(node.children) } as Nodes] : [node];
    }
  }

  private code(node: Code): Nodes[] {
    const data = (node.data as { codeBlock?: CodeBlockData } | undefined)?.codeBlock;
    const part = data?.meta.exercise;
    const { strings } = this.context;
    if (part === 'trap') return [];
    const title = data?.meta.title;
    const out: Nodes[] = [];
    if (part === 'starter') out.push(label(strings.markdown.starterCode));
    if (part === 'tests') out.push(label(strings.exercise.testsLabel));
    out.push({
      type: 'code',
      lang: node.lang,
      meta: title !== undefined ? `title="${title}"` : null,
      value: node.value,
    });
    if (data?.output !== undefined) out.push({ type: 'code', lang: 'output', meta: null, value: data.output });
    return out;
  }

  private component(node: MdxJsxFlowElement): Nodes[] {
    const { strings } = this.context;
    switch (node.name) {
      case 'Compare': {
        const labels = [strings.compareJavaScript, strings.comparePython];
        const blocks = node.children.filter((child) => child.type === 'code');
        return blocks.flatMap((block, i) => [label(labels[i] ?? ''), ...this.code(block)]);
      }
      case 'Tabs':
        return node.children.flatMap((item) =>
          item.type === 'mdxJsxFlowElement'
            ? [label(attribute(item, 'label') ?? attribute(item, 'value') ?? ''), ...this.all(item.children)]
            : [],
        );
      case 'Hint':
        return this.section(attribute(node, 'summary') ?? strings.showHint, node);
      case 'Answer':
        return this.section(attribute(node, 'summary') ?? strings.markdown.answer, node);
      default:
        return this.all(node.children);
    }
  }

  /** A hint or an answer: a heading one below the section it is in, then its content. */
  private section(title: string, node: MdxJsxFlowElement): Nodes[] {
    const depth = Math.min(this.depth + 1, 6) as Heading['depth'];
    const heading: Heading = { type: 'heading', depth, children: [{ type: 'text', value: title }] };
    const children = this.all(node.children);
    return [heading, ...children];
  }

  /** A block quote led by the admonition's kind in bold, and its title as written (`**Warning: `True` is `1`**`). */
  private admonition(node: Admonition): Nodes {
    const { strings } = this.context;
    const kind = node.data?.hProperties?.kind ?? 'note';
    const kindLabel = strings.admonition[kind as keyof InterfaceStrings['admonition']] ?? kind;
    const title = node.data?.label?.children;
    const heading: Paragraph = title
      ? {
          type: 'paragraph',
          children: [
            {
              type: 'strong',
              children: filled(strings.markdown.admonitionTitle, {
                kind: [{ type: 'text', value: kindLabel }],
                title: this.all(title) as PhrasingContent[],
              }),
            },
          ],
        }
      : label(kindLabel);
    return { type: 'blockquote', children: [heading, ...(this.all(node.children) as RootContent[])] } as Nodes;
  }
}

/** A paragraph of one bold label. */
function label(text: string): Paragraph {
  return { type: 'paragraph', children: [{ type: 'strong', children: [{ type: 'text', value: text }] }] };
}

function attribute(node: MdxJsxFlowElement | MdxJsxTextElement, name: string): string | undefined {
  for (const a of node.attributes)
    if (a.type === 'mdxJsxAttribute' && a.name === name && typeof a.value === 'string') return a.value;
  return undefined;
}
