import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { ChunkBoundary, useRetryableLazy } from '../ChunkBoundary.js';
import { loadLazyModule } from '../../../client/core/lazy-modules.js';
import { typedBeforeHydration } from '../../../client/core/before-hydration.js';
import { focusSearchBox, isSearchShortcut } from '../../../client/core/search-shortcut.js';
import { useSite } from '../site-context.js';
import { useBrowserValue } from '../hooks/use-browser-state.js';
import { SearchIcon } from '../icons.js';

import type { SearchDropdownProps, SearchUiModule as SearchUi } from '../../../client/core/lazy-contracts.js';

const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/**
 * The navbar search box. Without JavaScript it is a plain GET form to the search page.
 * "/" (outside a text field) and Ctrl+K (Cmd+K on macOS) focus it; after opening a result, the target page's matches are
 * highlighted (also after client-side navigation, hence the dependency on the address).
 */
const NOTHING_TYPED = { query: '', focused: false };
let typedOnce: typeof NOTHING_TYPED | undefined;
/** Read once, when the app hydrates: the same object after (useSyncExternalStore compares it). */
const typedAtHydration = () => (typedOnce ??= typedBeforeHydration());

export function SearchBox() {
  const site = useSite();
  const { strings } = site;
  const [activated, setActivated] = useState(false);
  const [query, setQuery] = useState('');
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  // The server cannot know the platform: the macOS hint follows once the page is interactive.
  const mac = useBrowserValue(isMac, false);
  const inputRef = useRef<HTMLInputElement>(null);
  // The search engine and its UI are loaded the first time the box is hovered or focused.
  const [SearchDropdown, retrySearchDropdown] = useRetryableLazy<SearchDropdownProps>(() =>
    loadLazyModule<SearchUi>(site.lazyModules['search-ui']).then((ui) => ({ default: ui.SearchDropdown })),
  );
  const activate = () => setActivated(true);
  const close = useCallback(() => setDismissed(true), []);

  // What the reader typed before the app hydrated stays, and so does the box's focus: hydration
  // renders the server's empty box (or it would give up on the page), and the next render takes
  // the typed text up (state adjusted during render, as React advises for values that arrive).
  const typed = useBrowserValue(typedAtHydration, NOTHING_TYPED);
  const [takenUp, setTakenUp] = useState(NOTHING_TYPED);
  if (typed !== takenUp) {
    setTakenUp(typed);
    if (typed.query || typed.focused) {
      setQuery(typed.query);
      setFocused(typed.focused);
      setActivated(true);
    }
  }

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSearchShortcut(event) || !inputRef.current) return;
      event.preventDefault();
      focusSearchBox(inputRef.current);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const href = typeof window === 'undefined' ? '' : location.href;
  useEffect(() => {
    if (!site.search.highlightOnTarget) return;
    const typed = new URL(location.href).searchParams.get('highlight');
    if (typed === null) return;
    void loadLazyModule<SearchUi>(site.lazyModules['search-ui']).then((ui) =>
      ui.highlightTyped(typed, strings.searchHighlightRemove, site),
    );
  }, [href, site, strings]);

  return (
    <form
      className="navbar-search"
      role="search"
      action={site.searchRoute}
      method="get"
      onMouseEnter={activate}
      onFocus={() => {
        activate();
        setFocused(true);
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      <label className="navbar-search-label">
        <span className="visually-hidden">{strings.searchPlaceholder}</span>
        <SearchIcon />
        <input
          id="navbar-search-input"
          ref={inputRef}
          className="navbar-search-input"
          type="search"
          name="q"
          placeholder={strings.searchPlaceholder}
          autoComplete="off"
          spellCheck={false}
          value={query}
          role="combobox"
          aria-controls="search-results"
          aria-expanded={false}
          aria-autocomplete="list"
          onChange={(e) => {
            setQuery(e.target.value);
            setDismissed(false);
          }}
          aria-keyshortcuts="/ Control+K Meta+K"
        />
      </label>
      {query ? (
        <button
          type="button"
          className="navbar-search-clear"
          aria-label={strings.searchClear}
          title={strings.searchClear}
          onClick={() => {
            setQuery('');
            inputRef.current?.focus({ preventScroll: true }); // as boot.ts: the page stays where it is
          }}
        >
          ×
        </button>
      ) : (
        <kbd className="navbar-search-hint" aria-hidden="true">
          {mac ? strings.searchShortcutHintMac : strings.searchShortcutHint}
        </kbd>
      )}
      {activated && (
        <ChunkBoundary retryLabel={strings.chunkRetry} onRetry={retrySearchDropdown}>
          <Suspense fallback={null}>
            <SearchDropdown
              query={query}
              inputRef={inputRef}
              open={focused && !dismissed}
              onClose={close}
              onChoose={() => {
                setQuery('');
                setDismissed(true);
              }}
            />
          </Suspense>
        </ChunkBoundary>
      )}
    </form>
  );
}
