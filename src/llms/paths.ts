import { pageRoute } from '../book/routes.js';
import type { LocaleInfo } from '../shared/model/book.js';

/** The index of a locale's Markdown (llmstxt.org): title, summary, the chapters as links in sidebar order. */
export const LLMS_INDEX = 'llms.txt';
/** The whole of a locale's book as one Markdown file. */
export const LLMS_FULL = 'llms-full.txt';

/**
 * Where a chapter's Markdown is served: beside its page's folder, the page's URL without its
 * final slash plus `.md` (`/base/zh-cn/dictionary/` -> `/base/zh-cn/dictionary.md`), the name
 * tools guess from a page's URL. Every static host sends `.md` as text/markdown.
 */
export function markdownRouteOf(route: string): string {
  return `${route.replace(/\/$/, '')}.md`;
}

/** The Markdown of a locale's chapter, by route (`/base/zh-cn/dictionary.md`). */
export function chapterMarkdownRoute(basePath: string, locale: LocaleInfo, slug: string): string {
  return markdownRouteOf(pageRoute(basePath, locale, slug));
}

/** A locale's llms.txt or llms-full.txt, by route (`/base/zh-cn/llms.txt`). */
export function llmsRoute(basePath: string, locale: LocaleInfo, file: typeof LLMS_INDEX | typeof LLMS_FULL): string {
  return `${basePath}${locale.urlPrefix}${file}`;
}
