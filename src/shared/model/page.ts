import type { HomeData } from './home.js';
import type { Root as HastRoot } from 'hast';
import type { LocaleInfo } from './book.js';
import type { InterfaceStrings } from '../i18n/types.js';
import type { ChapterLink, Heading, TextSection, Warning } from './chapter.js';

export interface SidebarLink {
  type: 'link';
  label: string;
  href: string;
  slug: string;
}
export interface SidebarCategory {
  type: 'category';
  label: string;
  collapsed: boolean;
  items: SidebarEntry[];
}
export type SidebarEntry = SidebarLink | SidebarCategory;

export interface NavLink {
  label: string;
  href: string;
}
export interface TocItem {
  id: string;
  text: string;
  depth: number;
}
export interface Alternate {
  locale: string;
  htmlLang: string;
  label: string;
  href: string;
}

export type PageKind = 'home' | 'chapter' | 'search' | 'notFound';

/**
 * Everything the renderer, the client, search, the sitemap and the link checker need to know
 * about one page. JSON-serialisable except `hast`, which stays on the server.
 */
export interface PageModel {
  kind: PageKind;
  locale: string;
  /** '' (home), 'search', '404' or the chapter slug. */
  slug: string;
  route: string;
  /** Path of the HTML file inside the output folder. */
  outputFile: string;
  title: string;
  /** The `<title>`: "Chapter | Site title". */
  documentTitle: string;
  description: string;
  keywords: string[];
  toc: TocItem[];
  breadcrumbs: NavLink[];
  previous?: NavLink;
  next?: NavLink;
  editUrl?: string;
  /** A chapter's clean Markdown (src/llms/), by route (`/base/dictionary.md`); unset when the book writes none. */
  markdownUrl?: string;
  readingMinutes?: number;
  unlisted: boolean;
  /** Shown in the default locale because the translation is missing. */
  fallback: boolean;
  alternates: Alternate[];
  /** Source file, for messages; undefined for generated pages. */
  sourceFile?: string;
  headings: Heading[];
  links: ChapterLink[];
  sections: TextSection[];
  warnings: Warning[];
  hast?: HastRoot;
  /** The home page's parts, projects and example (home page only). */
  home?: HomeData;
}

export interface AnnouncementData {
  id: string;
  content: string;
  closable: boolean;
}

/** The docs version the spec describes: one version, "current", labelled "Next". */
export interface DocsVersion {
  name: string;
  label: string;
  path: string;
  mainDocId: string;
  isLast: boolean;
}

/** Data every page of a locale shares (navbar, sidebar, strings); shipped inline to the client. */
/** A lazily loaded entry module of the client bundle and the chunks it imports. */
export interface LazyModuleAsset {
  url: string;
  deps: string[];
}

export interface SiteData {
  title: string;
  tagline: string;
  author: string;
  basePath: string;
  siteVersion: string;
  repositoryUrl: string;
  locale: LocaleInfo;
  locales: LocaleInfo[];
  homeRoute: string;
  searchRoute: string;
  strings: InterfaceStrings;
  sidebar: SidebarEntry[];
  announcement?: AnnouncementData;
  footerCopyright: string;
  hideNavbarOnScroll: boolean;
  titleDelimiter: string;
  search: {
    maxResults: number;
    snippetLength: number;
    highlightOnTarget: boolean;
    indexUrl: string;
    indexHash: string;
    /** Content hash of the pages' text files next to the index (search-text/<page>.json); without it snippets come from the index alone. */
    textHash?: string;
  };
  version: DocsVersion;
  /** The client's lazily loaded entry modules by name (filled in by the build). */
  lazyModules: Record<string, LazyModuleAsset>;
  /** Route -> URL of its page module, for client-side navigation (filled in by the build). */
  routes: Record<string, string>;
  /** Where the page's example runner finds Pyodide, its workers and the fixtures (filled in by the build). */
  runner?: RunnerSiteData;
  /**
   * Chapter slug -> the key of its exercise's tests, for the exercises a reader can Check in the
   * page (filled in by the build): progress counts these, and a solved one stays solved only
   * while its tests are the same.
   */
  exercises?: Record<string, string>;
  /** Reading offline (src/offline/): the service worker's URL; filled in by the build, absent when the book turns it off. */
  offline?: { worker: string };
}

/** What the page's example runner needs (src/runner/site-assets.ts makes it). */
export interface RunnerSiteData {
  /** A run that takes longer is stopped (book.config.json runner.timeLimitSeconds). */
  timeLimitMs: number;
  /** The sandbox document: every run happens in an opaque-origin iframe of it, with no network. */
  sandbox: string;
  /**
   * The same sandbox framed by a same-origin launcher document, for a page a service worker
   * controls: the worker can serve the launcher offline, which it cannot do for an opaque-origin frame.
   */
  launcher: string;
  python: {
    /** The module worker that runs Python (its code is handed to the sandbox). */
    worker: string;
    /**
     * Pyodide's files, which the page fetches and hands to the sandbox: their sizes, and the bytes
     * a download of each transfers (compressed), which the progress shows.
     */
    files: Array<{ name: string; url: string; bytes: number; sent: number }>;
    /** Pyodide's lock file, reduced to its header. */
    lock: string;
  };
  /** The sandbox worker script, which the page hands to the sandbox. */
  javascript: { worker: string };
  /** The book's fixtures, copied into each run's folder. */
  fixtures: Array<{ name: string; url: string }>;
}

/** The page as the client receives it: the model without server-only fields. */
export type ClientPage = Omit<
  PageModel,
  'hast' | 'headings' | 'links' | 'sections' | 'warnings' | 'sourceFile' | 'outputFile' | 'home'
> & { cover?: string };

export function toClientPage(page: PageModel): ClientPage {
  const {
    hast: _h,
    headings: _hd,
    links: _l,
    sections: _s,
    warnings: _w,
    sourceFile: _sf,
    outputFile: _o,
    home,
    ...rest
  } = page;
  // The home page's sections reach the client as HTML; of its data only the cover is needed there.
  return home ? { ...rest, cover: home.cover } : rest;
}
