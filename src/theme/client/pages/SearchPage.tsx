import { Suspense } from 'react';
import { ChunkBoundary, useRetryableLazy } from '../ChunkBoundary.js';
import { loadLazyModule } from '../../../client/core/lazy-modules.js';
import { useSite } from '../site-context.js';
import { useBrowserValue } from '../hooks/use-browser-state.js';

import type { SearchUiModule as SearchUi } from '../../../client/core/lazy-contracts.js';

/**
 * The search page shell. Results need the index, so they render only in the browser; the server
 * renders the form, which also works without JavaScript by reloading with ?q=.
 */
export function SearchPage() {
  const site = useSite();
  const inBrowser = useBrowserValue(() => true, false);
  const [SearchResults, retrySearchResults] = useRetryableLazy<Record<string, never>>(() =>
    loadLazyModule<SearchUi>(site.lazyModules['search-ui']).then((ui) => ({ default: ui.SearchPageResults })),
  );
  return (
    <div className="search-page">
      <h1>{site.strings.searchPageTitle}</h1>
      <noscript>
        <p className="search-needs-js">{site.strings.searchNeedsJavaScript}</p>
      </noscript>
      {inBrowser ? (
        <ChunkBoundary retryLabel={site.strings.chunkRetry} onRetry={retrySearchResults}>
          <Suspense fallback={<p>{site.strings.searchLoading}</p>}>
            <SearchResults />
          </Suspense>
        </ChunkBoundary>
      ) : (
        <form
          action={site.searchRoute}
          method="get"
          className="search-page-form"
          role="search"
          aria-label={site.strings.searchPageTitle}
        >
          <label>
            <span className="visually-hidden">{site.strings.searchPlaceholder}</span>
            <input className="search-page-input" type="search" name="q" placeholder={site.strings.searchPlaceholder} />
          </label>
        </form>
      )}
    </div>
  );
}
