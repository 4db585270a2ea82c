/**
 * The search interface, loaded by name (see client/lazy-modules.ts) the first time a reader
 * hovers or focuses the search box, opens the search page, or lands on highlighted results.
 */
import type { SearchUiModule } from '../../client/core/lazy-contracts.js';
import SearchDropdown from './SearchDropdown.js';
import SearchPageResults from './SearchPageResults.js';
import { highlightTyped } from './highlight-target.js';

export { SearchDropdown, SearchPageResults, highlightTyped };

// The shape the page's shell expects of this module (it loads it by name, without importing it).
({ SearchDropdown, SearchPageResults, highlightTyped }) satisfies SearchUiModule;
