import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { BookConfig, SidebarItemConfig } from '../config/types.js';
import { BookError, BookErrors } from '../shared/errors.js';
import { readChapterFile } from './read-chapter-file.js';
import type { BookModel, ChapterSource, LocaleInfo } from './types.js';

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
