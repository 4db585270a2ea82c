/**
 * What the three sides of the offline feature share: the page (client/), the service worker
 * (worker/) and the build (node/). The build writes the worker's manifest (OfflineManifest) into
 * the worker script and the small OfflineSiteData into each locale's site data; the page and the
 * worker talk in the messages below.
 */
import type { SiteData } from '../../shared/model/page.js';

/** The site data's part for the offline feature: the service worker's URL, `<basePath>sw.js` (its scope the base path). */
export type OfflineSiteData = NonNullable<SiteData['offline']>;

/** The file name of the worker, at the root of the base path (its folder is its scope). */
export const WORKER_FILE = 'sw.js';

/** The `<meta>` every page of a build with the feature carries, its content the build's id. */
export const BUILD_META = 'pybook-build';

/**
 * One file the worker may cache. `u` is its URL path as the page requests it (with the query that
 * versions the search files); `r`, for a file whose name does not change with its content (a
 * page, an image), is the revision its cache entry is kept under; a file without `r` is named by
 * its content, so its URL alone says which bytes it holds.
 */
export interface OfflineFile {
  /** URL path, e.g. `/base/assets/app.X.js` or `/base/search-index.json?_=abc`. */
  u: string;
  /** Bytes it takes once stored. */
  b: number;
  /** Bytes a download of it transfers, where the build knows it is less (a precompressed sibling). */
  s?: number;
  /** Revision (a SHA-1 prefix of its bytes) of a file not named by its content. */
  r?: string;
  /** Index of its group in OfflineManifest.groups. */
  g: number;
  /** A page: its title, which the offline page lists. */
  t?: string;
}

/**
 * The groups files belong to: `app` (the client, the site's images, the web app manifests; cached
 * when the worker installs), `runtime` (what runs examples: Pyodide, the sandbox, fixtures) and
 * one per locale (its pages, page modules, site data and search files). Making a locale available
 * offline stores `app`, `runtime` and that locale's group.
 */
export const APP_GROUP = 'app';
export const RUNTIME_GROUP = 'runtime';

export interface OfflineLocale {
  code: string;
  label: string;
  htmlLang: string;
  /** Its home page's URL path. */
  home: string;
}

/** The strings the worker's offline page shows (from the locale's interface strings). */
export interface OfflinePageStrings {
  title: string;
  text: string;
  savedPages: string;
  noSavedPages: string;
  home: string;
  /** Heading of the links to the other languages saved on this device. */
  otherLanguages: string;
}

/** What the build injects into the worker script. */
export interface OfflineManifest {
  /** The build's id: every page of the build carries it (BUILD_META). */
  build: string;
  /** The base path, the worker's scope. */
  scope: string;
  /** The stylesheet the offline page uses. */
  stylesheet: string;
  groups: string[];
  locales: OfflineLocale[];
  files: OfflineFile[];
  strings: Record<string, OfflinePageStrings>;
}

/** The key a file is cached under: its URL, and for a file not named by its content, its revision. */
export function cacheKeyOf(origin: string, file: Pick<OfflineFile, 'u' | 'r'>): string {
  if (file.r === undefined) return origin + file.u;
  return `${origin}${file.u}${file.u.includes('?') ? '&' : '?'}__pybook=${file.r}`;
}

/** The caches of one book (several books may share an origin, each under its base path). */
export function cacheNamesOf(scope: string): { files: string; meta: string; prefix: string } {
  const prefix = `pybook:${scope}:`;
  return { files: `${prefix}files`, meta: `${prefix}meta`, prefix };
}

/** A locale's state on this device, as the worker keeps it. */
export interface SavedLocale {
  /** The build whose files were saved last. */
  build: string;
  /** Every file of the locale's pack is stored. */
  complete: boolean;
}

/** What the worker tells a page about a locale. */
export interface LocaleStatus {
  code: string;
  saved: boolean;
  /** Saved, but some files are missing (an interrupted download, or an update that could not finish). */
  incomplete: boolean;
  /** Bytes the locale's pack takes once stored, and what is still to download for it. */
  bytes: number;
  missingBytes: number;
  /** Estimated bytes on the wire for the missing files. */
  missingSent: number;
  pages: number;
}

export interface DownloadProgress {
  locale: string;
  /** Bytes stored so far, of `total` (the missing files when the download started). */
  done: number;
  total: number;
}

/** Page -> worker. */
export type ToWorker =
  | { type: 'SKIP_WAITING' }
  | { type: 'build' }
  | { type: 'status' }
  | { type: 'save'; locale: string }
  | { type: 'cancel'; locale: string }
  | { type: 'remove'; locale: string }
  | { type: 'cache-loaded'; urls: string[] };

/** Worker -> pages (broadcast to every window in scope). */
export type FromWorker =
  | { type: 'offline-progress'; progress: DownloadProgress }
  | { type: 'offline-saved'; locale: string }
  | { type: 'offline-failed'; locale: string; reason: FailureReason; detail: string }
  | { type: 'offline-removed'; locale: string };

export type FailureReason = 'network' | 'space' | 'server' | 'cancelled';

/** The reply to `status`. */
export interface WorkerStatus {
  build: string;
  locales: LocaleStatus[];
  /** Locales downloading now. */
  downloading: DownloadProgress[];
}
