import { lazy, Suspense, useState } from 'react';
import { useSite } from '../site-context.js';
import { SearchIcon } from '../icons.js';

// The search engine and its UI are a separate chunk, loaded the first time the box is hovered or focused.
const SearchDropdown = lazy(() => import('../../client/search/SearchDropdown.js'));

/**
 * The navbar search box. Without JavaScript it is a plain GET form to the search page.
 */
export function SearchBox() {
  const site = useSite();
  const { strings } = site;
  const [activated, setActivated] = useState(false);
  const [query, setQuery] = useState('');
  const activate = () => setActivated(true);
  return (
    <form className="navbar-search" role="search" action={site.searchRoute} method="get" onMouseEnter={activate} onFocus={activate}>
      <label className="navbar-search-label">
        <span className="visually-hidden">{strings.searchPlaceholder}</span>
        <SearchIcon />
        <input id="navbar-search-input" className="navbar-search-input" type="search" name="q" placeholder={strings.searchPlaceholder}
          autoComplete="off" spellCheck={false} value={query} onChange={(e) => setQuery(e.target.value)} aria-keyshortcuts="Control+K Meta+K" />
      </label>
      {query ? (
        <button type="button" className="navbar-search-clear" aria-label={strings.searchClear} title={strings.searchClear}
          onClick={() => { setQuery(''); document.getElementById('navbar-search-input')?.focus(); }}>×</button>
      ) : (
        <kbd className="navbar-search-hint" aria-hidden="true">{strings.searchShortcutHint}</kbd>
      )}
      {activated && (
        <Suspense fallback={null}>
          <SearchDropdown query={query} setQuery={setQuery} />
        </Suspense>
      )}
    </form>
  );
}
