import { useEffect, useMemo, useState } from 'react';
import type { SiteData } from '../../shared/model/page.js';
import type { SearchEngine, SearchHit, SearchOptions } from '../shared/engine.js';
import { textsFor, type SearchDocument } from '../shared/index-format.js';
import type { CjkSegmenter } from '../shared/tokenize.js';
import { loadSearchEngine, loadSearchTexts } from './load-engine.js';

export type SearchState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | {
      status: 'ready';
      hits: SearchHit[];
      tokens: string[];
      /** The engine's Chinese word cutter: matches are highlighted as whole words. */
      segment: CjkSegmenter;
      /** The text a result's snippet is cut from: the full text once its page's file has arrived, until then the index's opening. */
      snippetSource: (doc: SearchDocument) => string;
    };

/**
 * Loads the engine on mount (once per page context) and runs the query whenever it changes.
 * The full texts snippets are cut from come per page, fetched for the pages of the results
 * shown only (`seen`: the ids of the results the reader can see, when not all of them): results
 * never wait for them (they show the index's short snippets first and upgrade when a page's
 * texts arrive; if a file fails, its short ones stay).
 */
export function useSearch(
  site: SiteData,
  query: string,
  options: SearchOptions,
  seen?: ReadonlySet<number>,
): SearchState {
  const [engine, setEngine] = useState<SearchEngine | Error | undefined>();
  useEffect(() => {
    let live = true;
    loadSearchEngine(site).then(
      (loaded) => live && setEngine(loaded),
      (error: Error) => live && setEngine(error),
    );
    return () => {
      live = false;
    };
  }, [site]);
  const { limit, urlPrefix } = options;
  const found = useMemo(() => {
    if (!engine || engine instanceof Error) return undefined;
    return {
      hits: engine.search(query, { limit, urlPrefix }),
      tokens: engine.queryTokens(query),
      segment: engine.segment,
    };
  }, [engine, query, limit, urlPrefix]);
  const shown = useMemo(() => (seen ? found?.hits.filter((hit) => seen.has(hit.doc.i)) : found?.hits), [found, seen]);
  const texts = usePageTexts(site, engine instanceof Error ? undefined : engine, shown);
  return useMemo((): SearchState => {
    if (engine instanceof Error) return { status: 'error', message: engine.message };
    if (!found) return { status: 'loading' };
    return { status: 'ready', ...found, snippetSource: (doc) => texts.get(doc.i) ?? doc.x };
  }, [engine, found, texts]);
}

/** The full texts (by document id) of the pages the hits come from, as their files arrive. */
function usePageTexts(
  site: SiteData,
  engine: SearchEngine | undefined,
  hits: SearchHit[] | undefined,
): Map<number, string> {
  const [texts, setTexts] = useState<Map<number, string>>(() => new Map());
  // The pages wanted, as a stable key: typing that keeps the same pages fetches and renders nothing new.
  const pages = useMemo(
    () => [...new Set((hits ?? []).map((hit) => hit.doc.g))].sort((a, b) => a - b).join(' '),
    [hits],
  );
  useEffect(() => {
    if (!engine || !pages) return;
    let live = true;
    for (const page of pages.split(' ').map(Number)) {
      // Files already loaded resolve at once (the loader keeps them); a failed one keeps the short snippets.
      loadSearchTexts(site, page)?.then(
        (file) => {
          const own = textsFor(file, page, engine.documents);
          if (!live || !own) return;
          setTexts((previous) => {
            if ([...own.keys()].every((doc) => previous.has(doc))) return previous;
            return new Map([...previous, ...own]);
          });
        },
        () => {},
      );
    }
    return () => {
      live = false;
    };
  }, [site, engine, pages]);
  return texts;
}
