import type { Code, Nodes, Root } from 'mdast';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import remarkParse from 'remark-parse';
import { unified, type Processor } from 'unified';
import { parseWithCodeBodiesHidden } from '../../src/markdown/hide-code-bodies.js';

/**
 * A plain Markdown reader, as an AI tool or a Markdown viewer reads the files: CommonMark with GFM
 * tables and strikethrough, and no MDX, directives or front matter (a component left in the text
 * would come out as an html node).
 */
const parser = unified()
  .use(remarkParse)
  .use(function gfm(this: Processor) {
    const data = this.data() as { micromarkExtensions?: unknown[]; fromMarkdownExtensions?: unknown[] };
    (data.micromarkExtensions ??= []).push(gfmTable(), gfmStrikethrough());
    (data.fromMarkdownExtensions ??= []).push(gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown());
  })
  .freeze();

/** Parses as `parser` alone does (parseWithCodeBodiesHidden checks that it does), in a fraction of its time on code. */
export function parsePlainMarkdown(text: string): Root {
  return parseWithCodeBodiesHidden(text, (body) => parser.parse(body));
}

/** Every node of a tree, in document order. */
export function nodesOf(tree: Nodes): Nodes[] {
  const out: Nodes[] = [tree];
  if ('children' in tree) for (const child of tree.children) out.push(...nodesOf(child));
  return out;
}

export const codeBlocksOf = (tree: Nodes): Code[] => nodesOf(tree).filter((node): node is Code => node.type === 'code');
