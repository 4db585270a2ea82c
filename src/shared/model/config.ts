/** The validated shape of book.config.json (see book.config.schema.json). */
export type LocalizedText = string | Record<string, string>;

export interface LocaleConfig {
  label: string;
  direction: 'ltr' | 'rtl';
  htmlLang: string;
  calendar?: string;
  path: string;
}

export interface SidebarCategoryConfig {
  type: 'category';
  label: LocalizedText;
  collapsed?: boolean;
  items: SidebarItemConfig[];
}

export type SidebarItemConfig = string | SidebarCategoryConfig;

export interface BookConfig {
  title: LocalizedText;
  tagline: LocalizedText;
  /** One list for every locale, or one list per locale code. */
  keywords: string[] | Record<string, string[]>;
  author: string;
  repositoryUrl: string;
  editUrlBase: string;
  basePath: string;
  siteVersion: string;
  siteUrl: string;
  contentDir: string;
  staticDir: string;
  defaultLocale: string;
  locales: Record<string, LocaleConfig>;
  sidebar: SidebarItemConfig[];
  navbar: { hideOnScroll: boolean };
  footer: { copyright?: LocalizedText };
  announcementBar?: { id: string; content: LocalizedText; closable: boolean };
  /** The home page: its cover per locale and the chapters it presents as projects. */
  home?: { cover?: LocalizedText; projects?: string[] };
  tableOfContents: { minHeadingLevel: number; maxHeadingLevel: number };
  titleDelimiter: string;
  sitemap: { changefreq: string; priority: number };
  search: {
    languages: Array<'en' | 'zh'>;
    maxResults: number;
    snippetLength: number;
    highlightOnTarget: boolean;
    indexUrl?: string;
  };
  /** Running examples in the page. */
  runner: { timeLimitSeconds: number };
  /** The book for AI tools: llms.txt, llms-full.txt and each chapter as Markdown (src/llms/); default true. */
  llms: boolean;
  /** Reading offline (src/offline/): the web app manifest and the service worker; on unless turned off. */
  offline: OfflineConfig;
  /** Folder that holds book.config.json; relative paths in the config resolve against it. */
  rootDir: string;
}

/** `offline` in book.config.json: `false` turns the feature off; an object may name the installed app. */
export interface OfflineConfig {
  enabled: boolean;
  /** The installed app's short name (the manifest's short_name), per locale; the book's title by default. */
  shortName?: LocalizedText;
}

/** Picks a locale's keywords (see BookConfig.keywords), falling back to the default locale's. */
export function localizeKeywords(keywords: BookConfig['keywords'], locale: string, defaultLocale: string): string[] {
  if (Array.isArray(keywords)) return keywords;
  return keywords[locale] ?? keywords[defaultLocale] ?? [];
}

/** Picks a locale's text, falling back to the default locale's. */
export function localize(text: LocalizedText | undefined, locale: string, defaultLocale: string): string {
  if (text === undefined) return '';
  if (typeof text === 'string') return text;
  return text[locale] ?? text[defaultLocale] ?? Object.values(text)[0] ?? '';
}
