import type { LazyModuleAsset } from '../../shared/model/page.js';

/** How many times each lazy module failed to load, for Retry's fresh URL. */
const failures = new Map<string, number>();

async function fetchOk(url: string): Promise<void> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`Failed to fetch module ${url} (HTTP ${response.status})`);
}

/**
 * Loads one of the client's lazily loaded entry modules (the search interface, say) so that a
 * failure can be retried. Browsers remember a failed import() for its URL, and a module whose
 * dependency failed stays failed too; so the files are fetched first (a failed fetch is an
 * ordinary error, and a fetched file is in the HTTP cache for the import), and an import after a
 * failure asks for a fresh URL.
 */
export async function loadLazyModule<T>(asset: LazyModuleAsset): Promise<T> {
  const attempt = failures.get(asset.url) ?? 0;
  try {
    await Promise.all([asset.url, ...asset.deps].map(fetchOk));
    return (await import(/* @vite-ignore */ attempt ? `${asset.url}?retry=${attempt}` : asset.url)) as T;
  } catch (error) {
    failures.set(asset.url, attempt + 1);
    throw error;
  }
}
