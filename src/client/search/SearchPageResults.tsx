import { useEffect, useState } from 'react';
import { format, plural } from '../../i18n/index.js';
import { useSite } from '../../theme/site-context.js';
import { highlightParts, snippetParts } from '../../search/highlight.js';
import { Highlighted } from './Highlighted.js';
import { resultHref } from './load-engine.js';
import { useSearch } from './use-search.js';

/**
 * The search page: every result for `?q=`. Typing updates the address (replaceState, so the
 * back button is not flooded) and keeps `ctx` (only results under that path) and `version`.
 */
export default function SearchPageResults() {
  const site = useSite();
  const { strings } = site;
  const [params] = useState(() => new URLSearchParams(location.search));
  const [query, setQuery] = useState(() => params.get('q') ?? '');
  const ctx = params.get('ctx') ?? '';
  const urlPrefix = ctx ? site.homeRoute + ctx.replace(/^\/+/, '') : undefined;
  const trimmed = query.trim();
  const state = useSearch(site, trimmed, { urlPrefix });

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
      <form className="search-page-form" role="search" aria-label={strings.searchPageTitle} onSubmit={(event) => event.preventDefault()}>
        <label>
          <span className="visually-hidden">{strings.searchPlaceholder}</span>
          <input className="search-page-input" type="search" name="q" placeholder={strings.searchPlaceholder} autoComplete="off"
            spellCheck={false} value={query} onChange={(event) => setQuery(event.target.value)} />
        </label>
      </form>
      {trimmed && <h2 className="search-page-query">{format(strings.searchPageTitleWithQuery, { query: trimmed })}</h2>}
      {state.status === 'loading' && <p>{strings.searchLoading}</p>}
      {state.status === 'error' && <p className="search-error" role="alert">{state.message}</p>}
      {state.status === 'ready' && trimmed && (state.hits.length === 0 ? (
        <p className="search-page-empty">{strings.searchPageNoDocuments}</p>
      ) : (
        <>
          <p className="search-page-count">{plural(strings.searchPageResultCount, state.hits.length, site.locale.htmlLang)}</p>
          <ol>
            {state.hits.map((hit) => (
              <li key={hit.doc.i} className="search-page-result" data-result-type={hit.type}>
                {hit.doc.b.length > 0 && <div className="search-result-breadcrumbs">{hit.doc.b.join(' › ')}</div>}
                <h3>
                  <a href={resultHref(site, hit.doc.u, hit.doc.h, trimmed)}>
                    <Highlighted parts={highlightParts(hit.doc.s ? `${hit.doc.t} › ${hit.doc.s}` : hit.doc.t, state.tokens, state.segment)} />
                  </a>
                </h3>
                <p className="search-result-snippet"><Highlighted parts={snippetParts(state.snippetSource(hit.doc), state.tokens, site.search.snippetLength, state.segment)} /></p>
              </li>
            ))}
          </ol>
        </>
      ))}
    </div>
  );
}
