import { existsSync } from 'node:fs';
import path from 'node:path';
import { Builder } from '../../generator/build.js';
import { renderContent } from '../../generator/render-page.js';
import type { LocaleInfo } from '../../shared/model/book.js';
import type { Warning } from '../../shared/model/chapter.js';
import { localize, localizeKeywords, type BookConfig } from '../../shared/model/config.js';
import type { PageModel, SidebarEntry, SiteData } from '../../shared/model/page.js';
import type { InterfaceStrings } from '../../shared/i18n/types.js';
import { fileNameSlug } from '../shared/file-names.js';

/** One chapter as the exports print it: the site's own rendering of its content. */
export interface ExportChapter {
  slug: string;
  title: string;
  /** The chapter's content as the site renders it (src/theme/content), before export's changes. */
  html: string;
  /** The ids of the content's elements (links to an id it lacks go to the chapter). */
  ids: ReadonlySet<string>;
  page: PageModel;
}

export interface ExportCategory {
  type: 'category';
  label: string;
  items: ExportEntry[];
}
export type ExportEntry = ExportCategory | { type: 'chapter'; chapter: ExportChapter };

/** A static file of the book (the cover, an image of a chapter): where it is and its media type. */
export interface BookFile {
  /** Its path in the site, below the base path ('img/cover.svg'). */
  sitePath: string;
  file: string;
  mediaType: string;
}

/** One locale's book, as both exports read it. */
export interface ExportBook {
  config: BookConfig;
  locale: LocaleInfo;
  site: SiteData;
  strings: InterfaceStrings;
  title: string;
  tagline: string;
  author: string;
  version: string;
  keywords: string[];
  /** The site's address with its base path, for links to what the book does not hold. */
  siteAddress: string;
  cover?: BookFile;
  /** The sidebar's tree (without Home): categories and chapters. */
  entries: ExportEntry[];
  /** The chapters in reading order. */
  chapters: ExportChapter[];
  /** Folders of the site's static files (images), looked up in order. */
  staticDirs: string[];
}

const MEDIA_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

export const mediaTypeOf = (file: string): string | undefined => MEDIA_TYPES[path.extname(file).toLowerCase()];

/** A static file of the site by its path below the base path, when one of the static folders has it. */
export function findStaticFile(staticDirs: string[], sitePath: string): BookFile | undefined {
  const clean = decodeURIComponent(sitePath.replace(/[?#].*$/, '')).replace(/^\/+/, '');
  if (!clean || clean.split('/').some((part) => part === '..' || part === '')) return undefined;
  const mediaType = mediaTypeOf(clean);
  if (!mediaType) return undefined;
  for (const dir of staticDirs) {
    const file = path.join(dir, clean);
    if (existsSync(file)) return { sitePath: clean, file, mediaType };
  }
  return undefined;
}

export interface LoadedBooks {
  books: ExportBook[];
  warnings: Warning[];
  /** The file-name slug of the book (from the default locale's title). */
  slug: string;
}

/**
 * Compiles the book (reusing the build cache) and gathers, per locale, what the exports print:
 * the sidebar's tree of categories and chapters, each chapter's content rendered by the site's
 * own components, and the cover.
 */
export async function loadExportBooks(options: {
  configPath: string;
  locales?: readonly string[];
  cache?: boolean;
}): Promise<LoadedBooks> {
  const builder = new Builder({ configPath: options.configPath, diskCache: options.cache !== false });
  const { config, book, pages, sites, warnings, staticDirs } = await builder.compileSite();
  const known = book.locales.map((l) => l.code);
  for (const code of options.locales ?? [])
    if (!known.includes(code))
      throw new Error(`the book has no locale ${JSON.stringify(code)} (its locales: ${known.join(', ')})`);
  const locales = book.locales.filter((l) => !options.locales || options.locales.includes(l.code));
  const books = locales.map((locale) => {
    const site = sites[locale.code];
    const bySlug = new Map(
      pages.filter((p) => p.kind === 'chapter' && p.locale === locale.code && !p.unlisted).map((p) => [p.slug, p]),
    );
    const chapters: ExportChapter[] = [];
    const chapterOf = (slug: string): ExportChapter | undefined => {
      const page = bySlug.get(slug);
      if (!page?.hast) return undefined;
      bySlug.delete(slug);
      const html = renderContent(page.hast, site);
      const chapter = { slug, title: page.title, html, ids: idsOf(html), page };
      chapters.push(chapter);
      return chapter;
    };
    const convert = (items: SidebarEntry[]): ExportEntry[] =>
      items.flatMap((item): ExportEntry[] => {
        if (item.type === 'link') {
          const chapter = item.slug ? chapterOf(item.slug) : undefined;
          return chapter ? [{ type: 'chapter', chapter }] : [];
        }
        const children = convert(item.items);
        return children.length ? [{ type: 'category', label: item.label, items: children }] : [];
      });
    const entries = convert(site.sidebar);
    // Chapters the sidebar does not list (but are not unlisted) close the book, in reading order.
    for (const slug of book.slugs) {
      const chapter = bySlug.has(slug) ? chapterOf(slug) : undefined;
      if (chapter) entries.push({ type: 'chapter', chapter });
    }
    const coverPath = config.home?.cover ? localize(config.home.cover, locale.code, config.defaultLocale) : undefined;
    return {
      config,
      locale,
      site,
      strings: site.strings,
      title: site.title,
      tagline: site.tagline,
      author: config.author,
      version: config.siteVersion,
      keywords: localizeKeywords(config.keywords, locale.code, config.defaultLocale),
      siteAddress: `${config.siteUrl.replace(/\/+$/, '')}${config.basePath}`,
      cover: coverPath ? findStaticFile(staticDirs, coverPath) : undefined,
      entries,
      chapters,
      staticDirs,
    } satisfies ExportBook;
  });
  const slug = fileNameSlug(localize(config.title, config.defaultLocale, config.defaultLocale));
  return { books, warnings, slug };
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', '#x27': "'", lt: '<', gt: '>' };

/** The ids of the elements of rendered HTML (React writes them with these five escapes). */
export function idsOf(html: string): Set<string> {
  return new Set(
    [...html.matchAll(/\sid="([^"]*)"/g)].map((m) =>
      m[1].replace(/&(amp|quot|#x27|lt|gt);/g, (_, e: string) => ENTITIES[e]),
    ),
  );
}
