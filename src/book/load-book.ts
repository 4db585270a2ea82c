import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { BookConfig, SidebarItemConfig } from '../shared/model/config.js';
import { BookError, BookErrors } from '../core/errors.js';
import { readChapterFile } from './read-chapter-file.js';
import type { BookModel, ChapterSource, LocaleInfo } from '../shared/model/book.js';

export function localesOf(config: BookConfig): LocaleInfo[] {
  const entries = Object.entries(config.locales);
  // Default locale first so that it is built, listed and linked first everywhere.
  entries.sort(([a], [b]) => Number(b === config.defaultLocale) - Number(a === config.defaultLocale));
  return entries.map(([code, l]) => ({
    code,
    label: l.label,
    htmlLang: l.htmlLang,
    direction: l.direction,
    calendar: l.calendar ?? 'gregory',
    path: l.path,
    isDefault: code === config.defaultLocale,
    urlPrefix: code === config.defaultLocale ? '' : `${l.path}/`,
  }));
}

export function sidebarSlugs(items: SidebarItemConfig[]): string[] {
  return items.flatMap((item) => (typeof item === 'string' ? [item] : sidebarSlugs(item.items)));
}

function mdxFilesIn(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter((f) => f.endsWith('.mdx')).map((f) => f.slice(0, -4)).sort();
}

/** A chapter's slug is its URL: lowercase words of letters and digits joined by dashes (as the config's schema says). */
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * Names the site itself uses at a locale's root, which no chapter may take: its page would replace
 * (or sit inside) the search page, the assets, the search texts or the not-found page.
 */
const RESERVED_SLUGS = ['search', 'assets', 'search-text', 'search-index', '404', 'index', 'sitemap', 'robots'];

/**
 * Why a chapter file's name cannot be a slug of this book, or undefined. Uppercase is refused
 * (so no two chapters differ only by case: they would collide on case-insensitive hosts), as are
 * the site's own names and the locales' folders.
 */
function slugProblem(slug: string, localePaths: string[]): string | undefined {
  if (!SLUG.test(slug)) return `"${slug}" is not a chapter slug: use lowercase letters, digits and dashes (the file name is the chapter's URL)`;
  if (RESERVED_SLUGS.includes(slug)) return `"${slug}" is a name the site uses for its own pages and files: choose another file name`;
  if (localePaths.includes(slug)) return `"${slug}" is a locale's folder: choose another file name`;
  return undefined;
}

/**
 * Reads the chapter files of every locale. The sidebar decides order; a sidebar entry without
 * a default-locale file is an error; a file missing in another locale falls back to the default.
 */
export function loadBook(config: BookConfig): BookModel {
  const locales = localesOf(config);
  const defaultLocale = locales[0];
  const contentDir = path.resolve(config.rootDir, config.contentDir);
  const defaultFolder = path.join(contentDir, defaultLocale.path);
  const listed = sidebarSlugs(config.sidebar);
  const onDisk = mdxFilesIn(defaultFolder);

  const errors: BookError[] = [];
  const localePaths = locales.map((locale) => locale.path);
  for (const slug of new Set([...listed, ...onDisk])) {
    const problem = slugProblem(slug, localePaths);
    const file = listed.includes(slug) ? path.join(config.rootDir, 'book.config.json') : path.join(defaultFolder, `${slug}.mdx`);
    if (problem) errors.push(new BookError(problem, { file }));
  }
  const seen = new Set<string>();
  for (const slug of listed) {
    if (seen.has(slug)) errors.push(new BookError(`sidebar lists the chapter "${slug}" twice`, { file: path.join(config.rootDir, 'book.config.json') }));
    seen.add(slug);
    if (!onDisk.includes(slug)) {
      errors.push(new BookError(`the sidebar names chapter "${slug}" but ${path.relative(process.cwd(), path.join(defaultFolder, `${slug}.mdx`))} does not exist`, { file: path.join(config.rootDir, 'book.config.json') }));
    }
  }
  if (errors.length) throw errors.length === 1 ? errors[0] : new BookErrors(errors);

  const slugs = [...listed, ...onDisk.filter((slug) => !seen.has(slug))];
  const chapters: Record<string, ChapterSource[]> = {};
  for (const locale of locales) {
    const folder = path.join(contentDir, locale.path);
    const translated = new Set(mdxFilesIn(folder));
    for (const extra of translated) {
      if (!slugs.includes(extra)) {
        const problem = slugProblem(extra, localePaths);
        if (problem) throw new BookError(problem, { file: path.join(folder, `${extra}.mdx`) });
        throw new BookError(`chapter "${extra}" exists in ${locale.code} but not in the default locale (${defaultLocale.code})`, { file: path.join(folder, `${extra}.mdx`) });
      }
    }
    chapters[locale.code] = slugs.map((slug) => {
      const fallback = !translated.has(slug);
      const file = path.join(fallback ? defaultFolder : folder, `${slug}.mdx`);
      return {
        slug,
        locale: locale.code,
        file,
        relativePath: path.relative(config.rootDir, file).split(path.sep).join('/'),
        fallback,
        source: readChapterFile(file, config.rootDir),
      };
    });
  }
  return { config, locales, defaultLocale, slugs, chapters };
}
