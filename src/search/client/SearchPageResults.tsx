import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { format, plural } from '../../shared/i18n/index.js';
import { useSite } from '../../theme/client/site-context.js';
import type { SearchHit } from '../shared/engine.js';
import { groupByPage } from '../shared/group.js';
import { highlightParts, snippetParts } from '../shared/highlight.js';
import { Highlighted } from './Highlighted.js';
import { resultHref } from './load-engine.js';
import { useSearch } from './use-search.js';

/**
 * The search page: every result for `?q=`, grouped by page (the page's title, its own result when
 * the page itself matched, then its sections), and how many pages that is. Typing updates the
 * address (replaceState, so the back button is not flooded) and keeps `ctx` (only results under
 * that path) and `version`.
 */
export default function SearchPageResults() {
  const site = useSite();
  const { strings } = site;
  const [params] = useState(() => new URLSearchParams(location.search));
  const [query, setQuery] = useState(() => params.get('q') ?? '');
  const ctx = params.get('ctx') ?? '';
  const urlPrefix = ctx ? site.homeRoute + ctx.replace(/^\/+/, '') : undefined;
  const trimmed = query.trim();
  const listRef = useRef<HTMLOListElement>(null);
  const [seen, watchResults] = useSeenResults(listRef);
  const state = useSearch(site, trimmed, { urlPrefix }, seen);
  const hits = state.status === 'ready' ? state.hits : undefined;
  const groups = useMemo(() => (hits ? groupByPage(hits) : []), [hits]);
  useEffect(watchResults, [watchResults, hits]);

  useEffect(() => {
    const next = new URLSearchParams(location.search);
    if (trimmed) next.set('q', query);
    else next.delete('q');
    const search = next.toString();
    const url = `${location.pathname}${search ? `?${search}` : ''}${location.hash}`;
    if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', url);
  }, [query, trimmed]);

  return (
    <div className="search-page-results">
      <form
        className="search-page-form"
        role="search"
        aria-label={strings.searchPageTitle}
        onSubmit={(event) => event.preventDefault()}
      >
        <label>
          <span className="visually-hidden">{strings.searchPlaceholder}</span>
          <input
            className="search-page-input"
            type="search"
            name="q"
            placeholder={strings.searchPlaceholder}
            autoComplete="off"
            spellCheck={false}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </label>
      </form>
      {trimmed && <h2 className="search-page-query">{format(strings.searchPageTitleWithQuery, { query: trimmed })}</h2>}
      {state.status === 'loading' && <p>{strings.searchLoading}</p>}
      {state.status === 'error' && (
        <p className="search-error" role="alert">
          {state.message}
        </p>
      )}
      {state.status === 'ready' &&
        trimmed &&
        (state.hits.length === 0 ? (
          <p className="search-page-empty">{strings.searchPageNoDocuments}</p>
        ) : (
          <>
            <p className="search-page-count">
              {plural(strings.searchPageResultCount, groups.length, site.locale.htmlLang)}
            </p>
            <ol ref={listRef}>
              {groups.map((group) => {
                const snippet = (hit: SearchHit) => (
                  <p className="search-result-snippet">
                    <Highlighted
                      parts={snippetParts(
                        state.snippetSource(hit.doc),
                        state.tokens,
                        site.search.snippetLength,
                        state.segment,
                      )}
                    />
                  </p>
                );
                const title = <Highlighted parts={highlightParts(group.title, state.tokens, state.segment)} />;
                return (
                  <li key={group.page} className="search-page-group">
                    {group.breadcrumbs.length > 0 && (
                      <div className="search-result-breadcrumbs">{group.breadcrumbs.join(' › ')}</div>
                    )}
                    {group.own ? (
                      <div
                        className="search-page-result search-page-result-page"
                        data-result-type={group.own.type}
                        data-doc={group.own.doc.i}
                      >
                        <h3>
                          <a href={resultHref(site, group.url, undefined, trimmed)}>{title}</a>
                        </h3>
                        {snippet(group.own)}
                      </div>
                    ) : (
                      <h3>
                        <a href={resultHref(site, group.url, undefined, trimmed)}>{title}</a>
                      </h3>
                    )}
                    {group.sections.length > 0 && (
                      <ul className="search-page-sections">
                        {group.sections.map((hit) => (
                          <li
                            key={hit.doc.i}
                            className="search-page-result"
                            data-result-type={hit.type}
                            data-doc={hit.doc.i}
                          >
                            <h4>
                              <a href={resultHref(site, hit.doc.u, hit.doc.h, trimmed)}>
                                <Highlighted parts={highlightParts(hit.doc.s ?? '', state.tokens, state.segment)} />
                              </a>
                            </h4>
                            {snippet(hit)}
                          </li>
                        ))}
                      </ul>
                    )}
                  </li>
                );
              })}
            </ol>
          </>
        ))}
    </div>
  );
}

/**
 * The ids of the results that have come near the viewport, so that only their pages' texts are
 * fetched (a broad query lists results from forty pages; most are never scrolled to); undefined
 * without IntersectionObserver, and then every result's texts are fetched. `watch`, run after
 * each render of new results, observes the list's current items and returns the cleanup.
 */
function useSeenResults(
  listRef: RefObject<HTMLOListElement | null>,
): [seen: ReadonlySet<number> | undefined, watch: () => (() => void) | undefined] {
  const [seen, setSeen] = useState<ReadonlySet<number>>(() => new Set());
  const [observer] = useState(() =>
    typeof IntersectionObserver === 'undefined'
      ? undefined
      : new IntersectionObserver(
          (entries) => {
            const shown = entries
              .filter((entry) => entry.isIntersecting)
              .map((entry) => Number((entry.target as HTMLElement).dataset.doc));
            if (shown.length)
              setSeen((previous) =>
                shown.every((doc) => previous.has(doc)) ? previous : new Set([...previous, ...shown]),
              );
          },
          { rootMargin: '600px 0px' },
        ),
  );
  const watch = useCallback(() => {
    if (!observer) return undefined;
    listRef.current?.querySelectorAll('[data-doc]').forEach((item) => observer.observe(item));
    return () => observer.disconnect();
  }, [observer, listRef]);
  return [observer ? seen : undefined, watch];
}
