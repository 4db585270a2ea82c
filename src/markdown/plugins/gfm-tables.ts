import type { Processor } from 'unified';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';

/**
 * The two GitHub-flavoured extensions the book uses: tables and ~~strikethrough~~. The whole of
 * remark-gfm also brings literal autolinks, whose tokenizer tripled the parse time of a chapter.
 */
export function remarkGfmTables(this: Processor) {
  const data = this.data() as { micromarkExtensions?: unknown[]; fromMarkdownExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push(gfmTable(), gfmStrikethrough());
  (data.fromMarkdownExtensions ??= []).push(gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown());
}
