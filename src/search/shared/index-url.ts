import { textFileName } from './index-format.js';

/**
 * The URL the browser fetches the index from: the configured index URL with a cache-busting
 * query that is the hash of the index content, so it changes exactly when the index does.
 * Only the page's own origin is accepted: an index from elsewhere could inject results.
 */
export function indexRequestUrl(indexUrl: string, indexHash: string, pageHref: string): string {
  const page = new URL(pageHref);
  let url: URL;
  try {
    url = new URL(indexUrl, page);
  } catch {
    throw new Error('Unexpected version url');
  }
  if (url.origin !== page.origin || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new Error('Unexpected version url');
  url.searchParams.set('_', indexHash);
  return url.href;
}

/**
 * The URL of a page's text file: `search-text/<page>.json` next to the validated index URL (so it
 * is on the page's origin whenever the index is), with the texts' content hash as the cache-busting query.
 */
export function textRequestUrl(indexUrl: string, textHash: string, page: number, pageHref: string): string {
  const url = new URL(textFileName(page), indexRequestUrl(indexUrl, '', pageHref));
  if (url.origin !== new URL(pageHref).origin) throw new Error('Unexpected version url');
  url.searchParams.set('_', textHash);
  return url.href;
}
