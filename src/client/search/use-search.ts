import { useEffect, useMemo, useState } from 'react';
import type { SiteData } from '../../pages/types.js';
import type { SearchEngine, SearchHit, SearchOptions } from '../../search/engine.js';
import { textsFor, type SearchDocument, type SearchTextFile } from '../../search/index-format.js';
import { loadSearchEngine, loadSearchTexts } from './load-engine.js';

export type SearchState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | {
    status: 'ready';
    hits: SearchHit[];
    tokens: string[];
    /** The text a result's snippet is cut from: the full text once it has arrived, until then the index's opening. */
    snippetSource: (doc: SearchDocument) => string;
  };

/**
 * Loads the engine and the full texts on mount, both at once (once per page context), and runs
 * the query whenever it changes. Results never wait for the texts: they show the index's short
 * snippets first and upgrade when the texts arrive; if the texts fail, the short ones stay.
 */
export function useSearch(site: SiteData, query: string, options: SearchOptions): SearchState {
  const [engine, setEngine] = useState<SearchEngine | Error | undefined>();
  const [textFile, setTextFile] = useState<SearchTextFile | undefined>();
  useEffect(() => {
    let live = true;
    loadSearchEngine(site).then((loaded) => live && setEngine(loaded), (error: Error) => live && setEngine(error));
    loadSearchTexts(site)?.then((loaded) => live && setTextFile(loaded), () => {});
    return () => { live = false; };
  }, [site]);
  const texts = useMemo(() => (engine && !(engine instanceof Error) && textFile ? textsFor(textFile, engine.documents.length) : undefined), [engine, textFile]);
  const { limit, urlPrefix } = options;
  const found = useMemo(() => {
    if (!engine || engine instanceof Error) return undefined;
    return { hits: engine.search(query, { limit, urlPrefix }), tokens: engine.queryTokens(query) };
  }, [engine, query, limit, urlPrefix]);
  return useMemo((): SearchState => {
    if (engine instanceof Error) return { status: 'error', message: engine.message };
    if (!found) return { status: 'loading' };
    return { status: 'ready', ...found, snippetSource: (doc) => texts?.[doc.i] ?? doc.x };
  }, [engine, found, texts]);
}
