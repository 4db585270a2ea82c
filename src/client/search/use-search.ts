import { useEffect, useMemo, useState } from 'react';
import type { SiteData } from '../../pages/types.js';
import type { SearchEngine, SearchHit, SearchOptions } from '../../search/engine.js';
import { loadSearchEngine } from './load-engine.js';

export type SearchState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; hits: SearchHit[]; tokens: string[] };

/** Loads the engine on mount (once per page context) and runs the query whenever it changes. */
export function useSearch(site: SiteData, query: string, options: SearchOptions): SearchState {
  const [engine, setEngine] = useState<SearchEngine | Error | undefined>();
  useEffect(() => {
    let live = true;
    loadSearchEngine(site).then((loaded) => live && setEngine(loaded), (error: Error) => live && setEngine(error));
    return () => { live = false; };
  }, [site]);
  const { limit, urlPrefix } = options;
  return useMemo((): SearchState => {
    if (!engine) return { status: 'loading' };
    if (engine instanceof Error) return { status: 'error', message: engine.message };
    return { status: 'ready', hits: engine.search(query, { limit, urlPrefix }), tokens: engine.queryTokens(query) };
  }, [engine, query, limit, urlPrefix]);
}
