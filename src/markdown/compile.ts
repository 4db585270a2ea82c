import type { Root } from 'mdast';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { VFile } from 'vfile';
import { VFileMessage } from 'vfile-message';
import { BookError, lineOf } from '../core/errors.js';
import { remarkAdmonitions } from './plugins/admonitions.js';
import { dropPositions } from './plugins/drop-positions.js';
import { rehypeFocusableTables } from './plugins/focusable-tables.js';
import { remarkCodeBlocks } from './plugins/code-blocks.js';
import { remarkFrontMatterData } from './plugins/front-matter.js';
import { escapeHeadingIds, remarkHeadingIds } from './plugins/heading-ids.js';
import { remarkLinks, type LinkOptions } from './plugins/links.js';
import { remarkMdxGuard } from './plugins/mdx-guard.js';
import { remarkNestingLimit } from './plugins/nesting-limit.js';
import { remarkUrlSchemes } from './plugins/url-schemes.js';
import { parseWithCodeBodiesHidden } from './hide-code-bodies.js';
import { createChapterParser } from './parse/parser.js';
import { remarkSectionKeywords } from './plugins/section-keywords.js';
import { remarkUnparsedStrong } from './plugins/unparsed-strong.js';
import { collectSections, countWords } from './plugins/text-sections.js';
import { toHastHandlers } from './to-hast-handlers.js';
import type { CompiledChapter } from '../shared/model/chapter.js';
import { chapterMarkdown, type MarkdownSite } from '../llms/chapter-markdown.js';
import './vfile-data.js';

export interface CompileOptions extends LinkOptions {
  /** Also write the chapter as clean Markdown (src/llms/), with this site's URLs; unset when book.config.json says "llms": false. */
  markdown?: MarkdownSite;
}

const parser = createChapterParser();

/** Compiles one chapter's MDX source into hast plus everything later stages need. */
export function compileChapter(source: string, filePath: string, options: CompileOptions): CompiledChapter {
  const file = new VFile({ path: filePath });
  let tree: Root;
  try {
    // file.value ends up as the text that was parsed, so that node offsets index into it.
    tree = parseWithCodeBodiesHidden(escapeHeadingIds(source), (text) => {
      file.value = text;
      return parser.parse(file);
    });
  } catch (error) {
    throw fromParseError(error, filePath, source);
  }
  const transforms = unified()
    .use(remarkNestingLimit)
    .use(remarkFrontMatterData)
    .use(remarkMdxGuard)
    .use(remarkSectionKeywords)
    .use(remarkAdmonitions)
    .use(remarkHeadingIds)
    .use(remarkUrlSchemes)
    .use(remarkLinks, options)
    .use(remarkCodeBlocks)
    .use(remarkUnparsedStrong);
  let mdast: Root;
  try {
    mdast = transforms.runSync(tree, file) as Root;
  } catch (error) {
    throw withOriginalLine(error, source);
  }
  const sections = collectSections(mdast, file);
  const markdown = options.markdown && chapterMarkdown(mdast, file.data.frontMatter!, options.slug, options.markdown);
  dropPositions(mdast);
  const hast = unified()
    .use(remarkRehype, { handlers: toHastHandlers as never })
    .use(rehypeFocusableTables)
    .runSync(mdast, file);
  return {
    frontMatter: file.data.frontMatter!,
    hast,
    headings: file.data.headings ?? [],
    links: file.data.links ?? [],
    examples: file.data.examples ?? [],
    ...(file.data.exercise ? { exercise: file.data.exercise } : {}),
    sections,
    wordCount: countWords(sections.map((s) => `${s.heading ?? ''} ${s.text}`).join(' ')),
    warnings: file.data.warnings ?? [],
    ...(markdown !== undefined ? { markdown } : {}),
  };
}

/** MDX syntax errors come from micromark as VFileMessages: keep their position. */
function fromParseError(error: unknown, filePath: string, source: string): BookError {
  if (error instanceof BookError) return error;
  if (error instanceof VFileMessage) {
    const { line, column } = error.line
      ? { line: error.line, column: error.column ?? undefined }
      : placeInReason(error.reason);
    const hint = /before name|Unexpected character/.test(error.reason)
      ? ' (a literal "<" or "{" in prose must be escaped as \\< or \\{, or put in `code`)'
      : '';
    return new BookError(
      `MDX syntax error: ${error.reason}${hint}`,
      { file: filePath, line, column },
      line ? lineOf(source, line) : undefined,
    );
  }
  return new BookError(`cannot parse: ${(error as Error).message}`, { file: filePath });
}

/**
 * A tag left open at the end of the file is reported without a place of its own; its message
 * names the opening tag's (`… for \`<Compare>\` (5:1-5:10)`): point there.
 */
function placeInReason(reason: string): { line?: number; column?: number } {
  const match = /\((\d+):(\d+)-\d+:\d+\)$/.exec(reason);
  return match ? { line: Number(match[1]), column: Number(match[2]) } : {};
}

/**
 * Plugins quote the line from the text they parsed, in which heading ids are escaped (`\{#id\}`);
 * show the author the line as they wrote it. Line numbers are the same in both.
 */
function withOriginalLine(error: unknown, source: string): unknown {
  if (!(error instanceof BookError) || error.sourceLine === undefined || error.position?.line === undefined)
    return error;
  return new BookError(error.message, error.position, lineOf(source, error.position.line));
}
