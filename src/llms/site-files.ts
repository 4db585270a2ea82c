import type { BookModel } from '../shared/model/book.js';
import type { CompiledChapter } from '../shared/model/chapter.js';
import type { PageModel, SiteData } from '../shared/model/page.js';
import { flattenSidebar } from '../shared/model/sidebar.js';
import { stringifyMarkdown } from './stringify.js';
import { llmsIndex, type ListedChapter } from './llms-txt.js';
import { LLMS_FULL, LLMS_INDEX, llmsRoute, markdownRouteOf } from './paths.js';

export interface MarkdownSiteInput {
  book: BookModel;
  pages: PageModel[];
  sites: Record<string, SiteData>;
  /** Compiled chapters by locale code, then slug (their `markdown` is the chapter's Markdown). */
  compiled: Record<string, Record<string, CompiledChapter>>;
}

/**
 * The book for AI tools, as files of the site (path inside the output folder -> text): each
 * chapter's Markdown beside its page (`dictionary.md`), and per locale llms.txt and llms-full.txt
 * (the chapters the sidebar lists, in its order). Nothing when the chapters were compiled without
 * Markdown (book.config.json "llms": false).
 */
export function markdownSiteFiles({ book, pages, sites, compiled }: MarkdownSiteInput): Map<string, string> {
  const files = new Map<string, string>();
  const { basePath, siteUrl } = book.config;
  const fileOf = (route: string) => route.slice(basePath.length);
  const chapterPages = new Map<string, PageModel>();
  for (const page of pages) {
    if (page.kind !== 'chapter') continue;
    const markdown = compiled[page.locale]?.[page.slug]?.markdown;
    if (markdown === undefined) continue;
    files.set(fileOf(markdownRouteOf(page.route)), markdown);
    chapterPages.set(`${page.locale}\0${page.slug}`, page);
  }
  if (!files.size) return files;
  for (const locale of book.locales) {
    const site = sites[locale.code];
    const listed = new Map<string, ListedChapter>();
    for (const { slug } of flattenSidebar(site.sidebar)) {
      const page = chapterPages.get(`${locale.code}\0${slug}`);
      if (!page) continue;
      listed.set(slug, {
        slug,
        title: page.title,
        description: compiled[locale.code][slug].frontMatter.description,
        url: siteUrl + markdownRouteOf(page.route),
      });
    }
    files.set(
      fileOf(llmsRoute(basePath, locale, LLMS_INDEX)),
      llmsIndex({
        site,
        chapters: listed,
        fullUrl: siteUrl + llmsRoute(basePath, locale, LLMS_FULL),
        otherLocales: book.locales
          .filter((other) => other !== locale)
          .map((other) => ({ label: other.label, url: siteUrl + llmsRoute(basePath, other, LLMS_INDEX) })),
      }),
    );
    const head = stringifyMarkdown({
      type: 'root',
      children: [
        { type: 'heading', depth: 1, children: [{ type: 'text', value: site.title }] },
        { type: 'blockquote', children: [{ type: 'paragraph', children: [{ type: 'text', value: site.tagline }] }] },
      ],
    });
    const chapters = [...listed.keys()].map((slug) => compiled[locale.code][slug].markdown!);
    files.set(fileOf(llmsRoute(basePath, locale, LLMS_FULL)), [head, ...chapters].join('\n'));
  }
  return files;
}
