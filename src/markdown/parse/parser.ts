import type { Root } from 'mdast';
import remarkDirective from 'remark-directive';
import remarkFrontmatter from 'remark-frontmatter';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified, type Processor } from 'unified';
import { remarkGfmTables } from '../plugins/gfm-tables.js';

/** A processor that only parses: text in, mdast out. */
export type ChapterParser = Processor<Root>;

/**
 * The chapter format's syntax: CommonMark read by remark-parse, with YAML front matter, GFM
 * tables and strikethrough, MDX (JSX, expressions, ESM) and directives, each added by its plugin
 * through unified's public extension lists (`micromarkExtensions`, `fromMarkdownExtensions`).
 *
 * remark-gfm is not used: it also brings literal autolinks, footnotes and task lists, which the
 * book does not use and which would change how plain text like `www.x.org` or `[ ] a` is read.
 * The GFM table plugin comes after remark-parse because it wraps the parser (see gfm-tables.ts).
 */
export function createChapterParser(): ChapterParser {
  return unified()
    .use(remarkParse)
    .use(remarkFrontmatter, ['yaml'])
    .use(remarkGfmTables)
    .use(remarkMdx)
    .use(remarkDirective)
    .freeze();
}
