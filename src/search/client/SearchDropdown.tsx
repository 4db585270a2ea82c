import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useSite } from '../../theme/client/site-context.js';
import { groupByPage, inGroupOrder } from '../shared/group.js';
import { highlightParts, snippetParts } from '../shared/highlight.js';
import { Highlighted } from './Highlighted.js';
import { resultHref } from './load-engine.js';
import { useSearch } from './use-search.js';
import type { SearchHit } from '../shared/engine.js';

import type { SearchDropdownProps } from '../../client/core/lazy-contracts.js';

export type { SearchDropdownProps };

/**
 * The navbar's result list. Mounting it (first hover or focus of the box) loads the index;
 * results follow the query as it is typed, grouped by page: the page's own result is the group's
 * heading (else its title labels the group), its sections are listed under it.
 */
export default function SearchDropdown({ query, inputRef, open, onClose, onChoose }: SearchDropdownProps) {
  const site = useSite();
  const { strings } = site;
  const trimmed = query.trim();
  const state = useSearch(site, trimmed, { limit: site.search.maxResults });
  const groups = useMemo(() => (state.status === 'ready' ? groupByPage(state.hits) : []), [state]);
  // The options in the order they are shown: the arrow keys walk them, ids number them.
  const hits = useMemo(() => inGroupOrder(groups), [groups]);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  // A new query selects its first result again (reset while rendering it, not after).
  const [activeQuery, setActiveQuery] = useState(trimmed);
  if (activeQuery !== trimmed) {
    setActiveQuery(trimmed);
    setActive(0);
  }

  const visible = open && trimmed !== '';
  // The key listener is attached once; it reads the current list from a ref, updated as each render
  // commits (before the browser can deliver another key), so a key pressed right after the results
  // render is never handled by a stale listener (or by none).
  const current = useRef({ visible, count: hits.length, active, onClose });
  useLayoutEffect(() => {
    current.current = { visible, count: hits.length, active, onClose };
  });
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const { visible: shown, count, active: selected, onClose: close } = current.current;
      if (!shown) return;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        if (!count) return;
        event.preventDefault();
        const next = (selected + (event.key === 'ArrowDown' ? 1 : count - 1)) % count;
        current.current.active = next;
        setActive(next);
      } else if (event.key === 'Enter' && count && !event.isComposing) {
        // Enter opens the selected result; with nothing to open the form goes to the search page.
        event.preventDefault();
        listRef.current?.querySelectorAll<HTMLAnchorElement>('.search-result a')[selected]?.click();
      } else if (event.key === 'Escape') {
        close();
      }
    };
    input.addEventListener('keydown', onKeyDown);
    return () => input.removeEventListener('keydown', onKeyDown);
  }, [inputRef]);

  useEffect(() => {
    inputRef.current?.setAttribute('aria-expanded', String(visible));
    if (visible && hits.length) inputRef.current?.setAttribute('aria-activedescendant', `search-result-${active}`);
    else inputRef.current?.removeAttribute('aria-activedescendant');
  }, [inputRef, visible, hits.length, active]);

  if (!visible) return null;
  const seeAll = `${site.searchRoute}?q=${encodeURIComponent(trimmed)}`;
  return (
    // Keep focus in the input while clicking in the list, so the list stays open until the click lands.
    <div className="search-dropdown" onMouseDown={(event) => event.preventDefault()}>
      {state.status === 'loading' && <p className="search-dropdown-status">{strings.searchLoading}</p>}
      {state.status === 'error' && (
        <p className="search-dropdown-status search-error" role="alert">
          {state.message}
        </p>
      )}
      {state.status === 'ready' &&
        (hits.length === 0 ? (
          <p className="search-dropdown-status search-no-results">{strings.searchNoResults}</p>
        ) : (
          <ul id="search-results" role="listbox" aria-label={strings.searchResultsLabel} ref={listRef}>
            {groups.map((group) => {
              const labelId = `search-group-${group.page}`;
              const option = (hit: SearchHit) => {
                const i = hits.indexOf(hit);
                const own = hit === group.own;
                return (
                  // The link itself is the option: an option holding a link is a control inside a control.
                  <li
                    key={hit.doc.i}
                    className={own ? 'search-result search-result-page' : 'search-result'}
                    role="presentation"
                    data-result-type={hit.type}
                    onMouseEnter={() => setActive(i)}
                  >
                    <a
                      id={`search-result-${i}`}
                      role="option"
                      aria-selected={i === active}
                      href={resultHref(site, hit.doc.u, hit.doc.h, trimmed)}
                      onClick={onChoose}
                    >
                      {own ? (
                        <span className="search-result-title" id={labelId}>
                          <Highlighted parts={highlightParts(hit.doc.t, state.tokens, state.segment)} />
                        </span>
                      ) : (
                        <span className="search-result-section">
                          <Highlighted parts={highlightParts(hit.doc.s ?? '', state.tokens, state.segment)} />
                        </span>
                      )}
                      <span className="search-result-snippet">
                        <Highlighted
                          parts={snippetParts(
                            state.snippetSource(hit.doc),
                            state.tokens,
                            site.search.snippetLength,
                            state.segment,
                          )}
                        />
                      </span>
                    </a>
                  </li>
                );
              };
              return (
                // The list's grouping is the group: an <li> may not take that role, its inner list may.
                <li key={group.page} className="search-result-group" role="presentation">
                  <ul role="group" aria-labelledby={labelId}>
                    {group.own ? (
                      option(group.own)
                    ) : (
                      <li className="search-result-group-title" role="presentation" id={labelId}>
                        <Highlighted parts={highlightParts(group.title, state.tokens, state.segment)} />
                      </li>
                    )}
                    {group.sections.map(option)}
                  </ul>
                </li>
              );
            })}
          </ul>
        ))}
      <a className="search-dropdown-footer search-see-all" href={seeAll} onClick={onClose}>
        {strings.searchSeeAll}
      </a>
    </div>
  );
}
