/**
 * The search interface, loaded by name (see client/lazy-modules.ts) the first time a reader
 * hovers or focuses the search box, opens the search page, or lands on highlighted results.
 */
export { default as SearchDropdown } from './SearchDropdown.js';
export { default as SearchPageResults } from './SearchPageResults.js';
export { highlightTyped } from './highlight-target.js';
