import type { Root } from 'mdast';
import { gfmStrikethroughToMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { toMarkdown, type Options } from 'mdast-util-to-markdown';

/**
 * How pybook writes Markdown: CommonMark with the two GFM extensions the book uses (tables and
 * strikethrough, as its parser reads them: src/markdown/parse/parser.ts), fenced code always.
 */
const OPTIONS: Options = {
  // Cells unpadded: padding costs bytes, and no width of a Chinese column lines up in every font.
  extensions: [gfmTableToMarkdown({ tablePipeAlign: false }), gfmStrikethroughToMarkdown()],
  bullet: '-',
  fences: true,
  rule: '-',
  listItemIndent: 'one',
};

export function stringifyMarkdown(tree: Root): string {
  return toMarkdown(tree, OPTIONS);
}
