import type { SiteData } from '../pages/types.js';
import { ProgressBar } from './progress-bar.js';
import { loadRouteModule, normalizePath, type RouteModule } from './route-modules.js';

export interface RouterOptions {
  site: SiteData;
  /** Renders a route synchronously (the caller wraps it in flushSync). */
  render: (route: RouteModule) => void;
}

export interface Router {
  /** Page module URL for an anchor of this site, or undefined when it is not a route. */
  moduleForAnchor(anchor: HTMLAnchorElement): string | undefined;
  navigate(href: string): Promise<void>;
  stop(): void;
}

interface HistoryState { scroll?: number }

function scrollToHash(hash: string): void {
  const id = decodeURIComponent(hash.slice(1));
  const target = document.getElementById(id);
  if (target) target.scrollIntoView();
  else window.scrollTo(0, 0);
}

function setMeta(name: string, content: string): void {
  document.querySelector(`meta[name="${name}"]`)?.setAttribute('content', content);
}

/**
 * Client-side navigation over the History API: internal links load the target route's page
 * module and swap the page without a reload; back/forward restore the scroll position. Anything
 * it cannot handle (other locales, unknown paths, a module that fails to load) becomes an
 * ordinary page load, so navigation never breaks.
 */
export function createRouter({ site, render }: RouterOptions): Router {
  const progress = new ProgressBar();
  let currentPath = normalizePath(location.pathname);
  let navigation = 0;
  history.scrollRestoration = 'manual';

  const moduleForPath = (pathname: string) => site.routes[normalizePath(pathname)];
  const moduleForAnchor = (anchor: HTMLAnchorElement) => {
    const url = new URL(anchor.href, location.href);
    return url.origin === location.origin ? moduleForPath(url.pathname) : undefined;
  };

  async function go(url: URL, mode: 'push' | 'pop', restoreScroll?: number): Promise<void> {
    const moduleUrl = moduleForPath(url.pathname);
    if (!moduleUrl) { location.assign(url.href); return; }
    const id = ++navigation;
    progress.start();
    let route: RouteModule;
    try {
      route = await loadRouteModule(moduleUrl);
    } catch (error) {
      progress.done();
      console.warn(`pybook: preloading ${url.pathname} failed (${(error as Error).message}); loading the page instead.`);
      location.assign(url.href);
      return;
    }
    if (id !== navigation) return; // a later click won
    if (mode === 'push') {
      history.replaceState({ ...(history.state as HistoryState | null), scroll: window.scrollY } satisfies HistoryState, '');
      history.pushState({ scroll: 0 } satisfies HistoryState, '', url.href);
    }
    currentPath = normalizePath(url.pathname);
    render(route);
    document.title = route.page.documentTitle;
    setMeta('description', route.page.description);
    setMeta('keywords', route.page.keywords.join(', '));
    document.querySelector('link[rel="canonical"]')?.setAttribute('href', new URL(route.page.route, document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href ?? location.href).href);
    progress.done();
    if (mode === 'pop' && restoreScroll !== undefined) window.scrollTo(0, restoreScroll);
    else if (url.hash) scrollToHash(url.hash);
    else window.scrollTo(0, 0);
  }

  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
    if (!anchor || (anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return;
    if (anchor.hasAttribute('data-locale-switch')) {
      // Same chapter in the other language, and the same section: headings share ids across languages.
      if (location.hash && !anchor.href.includes('#')) { event.preventDefault(); location.assign(anchor.href + location.hash); }
      return;
    }
    const url = new URL(anchor.href, location.href);
    if (url.origin !== location.origin) return;
    if (normalizePath(url.pathname) === currentPath && url.search === location.search && url.hash) return; // in-page anchor
    if (!moduleForPath(url.pathname)) return;
    event.preventDefault();
    void go(url, 'push');
  };

  const onPopState = (event: PopStateEvent) => {
    const path = normalizePath(location.pathname);
    if (path === currentPath) return; // only the #hash changed: the browser scrolls
    void go(new URL(location.href), 'pop', (event.state as HistoryState | null)?.scroll ?? 0);
  };

  // Remember where the reader was when leaving the page, so back restores it after a full load too.
  const onPageHide = () => history.replaceState({ ...(history.state as HistoryState | null), scroll: window.scrollY } satisfies HistoryState, '');

  document.addEventListener('click', onClick);
  window.addEventListener('popstate', onPopState);
  window.addEventListener('pagehide', onPageHide);
  const initialScroll = (history.state as HistoryState | null)?.scroll;
  if (initialScroll) window.scrollTo(0, initialScroll);

  return {
    moduleForAnchor,
    navigate: (href) => go(new URL(href, location.href), 'push'),
    stop() {
      document.removeEventListener('click', onClick);
      window.removeEventListener('popstate', onPopState);
      window.removeEventListener('pagehide', onPageHide);
    },
  };
}
