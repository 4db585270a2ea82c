import type { SiteData } from '../../pages/types.js';
import { SearchEngine } from '../../search/engine.js';
import type { SearchIndexFile } from '../../search/index-format.js';
import { indexRequestUrl } from '../../search/index-url.js';

const engines = new Map<string, Promise<SearchEngine>>();

/**
 * The search engine of a locale, fetched and built at most once per page context (navbar
 * box and search page share it). A failed load is forgotten so the next attempt retries.
 */
export function loadSearchEngine(site: SiteData): Promise<SearchEngine> {
  let url: string;
  try {
    url = indexRequestUrl(site.search.indexUrl, site.search.indexHash, location.href);
  } catch (error) {
    return Promise.reject(error as Error);
  }
  let engine = engines.get(url);
  if (!engine) {
    engine = fetch(url, { credentials: 'same-origin' })
      .then((response) => {
        if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
        return response.json() as Promise<SearchIndexFile>;
      })
      .then((file) => new SearchEngine(file));
    engines.set(url, engine);
    engine.catch(() => engines.delete(url));
  }
  return engine;
}

/** Link to a result; the target page highlights the query tokens when asked to. */
export function resultHref(site: SiteData, url: string, hash: string | undefined, tokens: string[]): string {
  const highlight = site.search.highlightOnTarget && tokens.length ? `?highlight=${encodeURIComponent(tokens.join(' '))}` : '';
  return `${url}${highlight}${hash ?? ''}`;
}
