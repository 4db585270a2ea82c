import type { BookConfig } from './config.js';

export interface LocaleInfo {
  code: string;
  label: string;
  htmlLang: string;
  direction: 'ltr' | 'rtl';
  calendar: string;
  /** Folder name of the locale's chapters (book/<path>/) and, except for the default, its URL prefix. */
  path: string;
  isDefault: boolean;
  /** '' for the default locale, 'zh-cn/' otherwise: what follows the base path in every URL. */
  urlPrefix: string;
}

/** One chapter file to compile. A missing translation points at the default locale's file. */
export interface ChapterSource {
  slug: string;
  locale: string;
  /** Absolute path of the file that is compiled. */
  file: string;
  /** Path relative to the book's root folder, for "Edit this page" and messages. */
  relativePath: string;
  /** True when the locale has no file and the default locale's text is shown instead. */
  fallback: boolean;
  source: string;
}

/** The book as read from disk: configuration, locales and the chapter files of each locale. */
export interface BookModel {
  config: BookConfig;
  locales: LocaleInfo[];
  defaultLocale: LocaleInfo;
  /** Chapter slugs in reading order (sidebar order first, then files the sidebar does not list). */
  slugs: string[];
  chapters: Record<string, ChapterSource[]>;
}
