import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { App } from '../theme/client/App.js';
import { ErrorBoundary } from '../theme/client/ErrorBoundary.js';
import { useBrowserValue } from '../theme/client/hooks/use-browser-state.js';
import type { ClientPage, SiteData } from '../shared/model/page.js';
import { loadRouteModule } from './route-modules.js';
import { createRouter, type Router } from './router.js';

interface Props {
  site: SiteData;
  page: ClientPage;
  html: string;
  /** Called once the page is hydrated and the router listens. */
  onHydrated?: () => void;
}

/** True when the site is opened under a path outside the configured base path (a deployment mistake). */
export function isWrongBasePath(pathname: string, basePath: string): boolean {
  return !(pathname === basePath.slice(0, -1) || pathname.startsWith(basePath));
}

/** The client's top component: the App plus the router that swaps its page on navigation. */
export function Root({ site, page, html, onHydrated }: Props) {
  const [route, setRoute] = useState({ page, html });
  // After hydration (the server cannot know the URL the site is opened at).
  const baseUrlWarning = useBrowserValue(() => isWrongBasePath(location.pathname, site.basePath), false);
  useEffect(() => {
    const router = createRouter({ site, render: (next) => flushSync(() => setRoute(next)) });
    // Prefetching is not needed for the first paint: its code loads once the browser is idle.
    let stopPrefetch = () => {};
    let stopped = false;
    const whenIdle = (run: () => void) =>
      window.requestIdleCallback ? window.requestIdleCallback(run) : window.setTimeout(run, 200);
    whenIdle(() => {
      void import('./prefetch.js').then(
        (prefetch) => {
          if (!stopped) stopPrefetch = prefetch.startPrefetching(router.moduleForAnchor, loadRouteModule);
        },
        () => {},
      );
    });
    // For watch mode's live-reload script (src/watch/live-reload.ts): show an edit in place.
    (window as Window & { __pybookRefresh?: Router['refresh'] }).__pybookRefresh = router.refresh;
    // A marker that the page is interactive (hydrated, router listening): tests and tools wait for it.
    document.documentElement.setAttribute('data-hydrated', '');
    // And when: the time to hydration, for npm run bench and the browser's performance panel.
    performance.mark('pybook:hydrated');
    onHydrated?.();
    return () => {
      stopped = true;
      router.stop();
      stopPrefetch();
    };
  }, [site, onHydrated]);
  // The App has its own boundary around the page content; this outer one catches errors in the
  // navbar or sidebar, which would otherwise unmount everything and leave a blank page.
  return (
    <ErrorBoundary title={site.strings.crashTitle} retryLabel={site.strings.crashTryAgain} resetKey={route.page.route}>
      <App site={site} page={route.page} html={route.html} baseUrlWarning={baseUrlWarning} />
    </ErrorBoundary>
  );
}
