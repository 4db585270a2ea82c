import type { SiteData } from '../../shared/model/page.js';
import { SearchEngine } from '../shared/engine.js';
import type { SearchIndexFile, SearchTextFile } from '../shared/index-format.js';
import { indexRequestUrl, textRequestUrl } from '../shared/index-url.js';

const engines = new Map<string, Promise<SearchEngine>>();
const textFiles = new Map<string, Promise<SearchTextFile>>();

/**
 * The search engine of a locale, fetched and built at most once per page context (navbar
 * box and search page share it). A failed load is forgotten so the next attempt retries.
 */
export function loadSearchEngine(site: SiteData): Promise<SearchEngine> {
  let url: string;
  try {
    url = indexRequestUrl(site.search.indexUrl, site.search.indexHash, location.href);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  return loadOnce(engines, url, (file: SearchIndexFile) => new SearchEngine(file));
}

/**
 * The full texts of one page's documents (search-text/<page>.json), for snippets around the
 * match; each fetched at most once per page context, like the engine. Undefined when the build
 * wrote none.
 */
export function loadSearchTexts(site: SiteData, page: number): Promise<SearchTextFile> | undefined {
  const { indexUrl, textHash } = site.search;
  if (!textHash) return undefined;
  let url: string;
  try {
    url = textRequestUrl(indexUrl, textHash, page, location.href);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  return loadOnce(textFiles, url, (file: SearchTextFile) => file);
}

/** Fetches JSON once per URL; a failed load is forgotten so the next attempt retries. */
function loadOnce<File, T>(cache: Map<string, Promise<T>>, url: string, make: (file: File) => T): Promise<T> {
  let loaded = cache.get(url);
  if (!loaded) {
    loaded = fetch(url, { credentials: 'same-origin' })
      .then((response) => {
        if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
        return response.json() as Promise<File>;
      })
      .then(make);
    cache.set(url, loaded);
    loaded.catch(() => cache.delete(url));
  }
  return loaded;
}

/** Link to a result; the target page highlights the query tokens when asked to. */
export function resultHref(site: SiteData, url: string, hash: string | undefined, typed: string): string {
  const words = typed.trim().split(/\s+/).filter(Boolean);
  const highlight =
    site.search.highlightOnTarget && words.length ? `?highlight=${encodeURIComponent(words.join(' '))}` : '';
  return `${url}${highlight}${hash ?? ''}`;
}
