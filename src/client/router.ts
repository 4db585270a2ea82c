import type { SiteData } from '../shared/model/page.js';
import { holdFullLayout, readChapterPlace, readScrollSpot, scrollToSpot, type ScrollSpot } from './scroll-spot.js';
import { focusNewPage, smoothScrollFromNowOn } from './page-focus.js';
import { loadRouteModule, normalizePath, replaceRouteModule, type RouteModule } from './route-modules.js';
import { carryPlace, startedAtPlace, stateOf, type HistoryState } from './page-place.js';

export interface RouterOptions {
  site: SiteData;
  /** Renders a route synchronously (the caller wraps it in flushSync). */
  render: (route: RouteModule) => void;
}

export interface Router {
  /** Page module URL for an anchor of this site, or undefined when it is not a route. (Bound.) */
  moduleForAnchor: (anchor: HTMLAnchorElement) => string | undefined;
  navigate(href: string): Promise<void>;
  /**
   * Watch mode's live reload (src/watch/live-reload.ts): a new version of a route's module, pushed
   * by the server. It replaces the cached module, so that navigating there shows it, and when it
   * is the current page and `show` is true, it is rendered in place (scroll kept; the script sets
   * the title). True when it was rendered. Bound (Root hands it to the script as it is), and a
   * promise, rejected when rendering throws: the script chains on it.
   */
  refresh: (route: RouteModule, show?: boolean) => Promise<boolean>;
  stop(): void;
}

/**
 * The progress bar, loaded on the first navigation (nothing needs it for the first paint). A change
 * that is already done when its code arrives shows no bar.
 */
function lazyProgressBar(): { start(): void; done(): void } {
  let bar: Promise<import('./progress-bar.js').ProgressBar> | undefined;
  let pending = false;
  return {
    start() {
      pending = true;
      bar ??= import('./progress-bar.js').then((m) => new m.ProgressBar());
      bar.then(
        (b) => {
          if (pending) b.start();
        },
        () => {
          bar = undefined;
        },
      );
    },
    done() {
      pending = false;
      bar?.then(
        (b) => b.done(),
        () => {},
      );
    },
  };
}

const newKey = () => Math.random().toString(36).slice(2, 10);
const TOP: ScrollSpot = { y: 0 };

/** At once, like scrollToSpot, and with the page laid out in full so that the heading ends at the top. */
function scrollToHash(hash: string): void {
  holdFullLayout();
  const target = document.getElementById(decodeURIComponent(hash.slice(1)));
  if (target) target.scrollIntoView({ behavior: 'instant' });
  else scrollToSpot(TOP);
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
  const progress = lazyProgressBar();
  let currentPath = normalizePath(location.pathname);
  let navigation = 0;
  history.scrollRestoration = 'manual';
  // Scroll positions of the entries visited in this document. A popstate arrives after the entry
  // has already changed, too late to write the position of the page being left into its state.
  const positions = new Map<string, ScrollSpot>();
  let currentKey = stateOf(history.state).key ?? newKey();
  history.replaceState({ ...stateOf(history.state), key: currentKey } satisfies HistoryState, '');

  const moduleForPath = (pathname: string) => site.routes[normalizePath(pathname)];
  const moduleForAnchor = (anchor: HTMLAnchorElement) => {
    const url = new URL(anchor.href, location.href);
    return url.origin === location.origin ? moduleForPath(url.pathname) : undefined;
  };

  /**
   * Remembers where the reader is on the current entry, in the entry itself too, so that a reload,
   * or back after a full load, returns there: before leaving the entry, and whenever a scroll ends
   * (a state written on pagehide reaches Chromium's history too late for a reload).
   */
  function saveSpot(): void {
    const spot = readScrollSpot();
    positions.set(currentKey, spot);
    history.replaceState({ ...stateOf(history.state), scroll: spot } satisfies HistoryState, '');
  }

  async function go(url: URL, mode: 'push' | 'pop', restoreScroll?: ScrollSpot): Promise<void> {
    const moduleUrl = moduleForPath(url.pathname);
    if (!moduleUrl) {
      location.assign(url.href);
      return;
    }
    const id = ++navigation;
    progress.start();
    let route: RouteModule;
    try {
      route = await loadRouteModule(moduleUrl);
    } catch (error) {
      progress.done();
      console.warn(
        `pybook: preloading ${url.pathname} failed (${(error as Error).message}); loading the page instead.`,
      );
      location.assign(url.href);
      return;
    }
    if (id !== navigation) return; // a later click won
    if (mode === 'push') {
      saveSpot();
      currentKey = newKey();
      history.pushState({ key: currentKey, scroll: TOP } satisfies HistoryState, '', url.href);
    }
    currentPath = normalizePath(url.pathname);
    render(route);
    document.title = route.page.documentTitle;
    setMeta('description', route.page.description);
    setMeta('keywords', route.page.keywords.join(', '));
    const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
    if (canonical) canonical.href = new URL(route.page.route, canonical.href).href;
    progress.done();
    // Focus leaves the link that was clicked (it may now point elsewhere) for the new page's title,
    // and screen readers hear the new title.
    const announcer = document.getElementById('route-announcer');
    if (announcer) announcer.textContent = route.page.documentTitle;
    focusNewPage();
    if (mode === 'pop' && restoreScroll !== undefined) scrollToSpot(restoreScroll);
    else if (url.hash) scrollToHash(url.hash);
    else scrollToSpot(TOP);
  }

  const onClick = (event: MouseEvent) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    const anchor = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
    if (!anchor || (anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return;
    if (anchor.hasAttribute('data-locale-switch')) {
      // Same chapter in the other language, at the same place: the section in view, and the block
      // in it, which the page there scrolls to as it starts. Its URL names the chapter only: a
      // #heading would have the browser scroll there instead (one the page was opened at may not
      // even be the section in view any more). Without session storage, the section's #heading
      // keeps at least the section.
      const place = readChapterPlace();
      if (!place || anchor.hash || carryPlace(normalizePath(anchor.pathname), place) || !place.section) return;
      event.preventDefault();
      location.assign(`${anchor.href}#${encodeURIComponent(place.section)}`);
      return;
    }
    const url = new URL(anchor.href, location.href);
    if (url.origin !== location.origin) return;
    if (normalizePath(url.pathname) === currentPath && url.search === location.search && url.hash) {
      saveSpot(); // in-page anchor: the browser scrolls, back returns here
      smoothScrollFromNowOn();
      holdFullLayout(); // so that the browser's scroll ends at the heading, not short of it
      return;
    }
    if (!moduleForPath(url.pathname)) return;
    event.preventDefault();
    void go(url, 'push');
  };

  const onPopState = (event: PopStateEvent) => {
    // A state without our key is an entry the browser just made for an in-page #anchor (the click
    // handler saved the position): adopt it and let the browser scroll.
    const fresh = !stateOf(event.state).key;
    // Otherwise a traversal: the browser does not restore scroll ('manual'), so window.scrollY is
    // still that of the entry being left.
    if (!fresh) positions.set(currentKey, readScrollSpot());
    const state = adoptEntry(event.state);
    const path = normalizePath(location.pathname);
    if (path === currentPath) {
      if (fresh) return;
      // Only the #hash changed: back where the reader was on that entry, else at the anchor.
      const known = positions.get(currentKey);
      if (known !== undefined) scrollToSpot(known);
      else if (location.hash) scrollToHash(location.hash);
      return;
    }
    // Unknown position (an entry from before a reload): the #anchor, else the top.
    void go(new URL(location.href), 'pop', positions.get(currentKey) ?? state.scroll);
  };

  /** Makes the current entry ours: entries the browser creates for in-page #anchors have no key yet. */
  function adoptEntry(raw: unknown): HistoryState {
    let state = stateOf(raw);
    if (!state.key) {
      state = { ...state, key: newKey() };
      history.replaceState(state, '');
    }
    currentKey = state.key!;
    return state;
  }
  const onHashChange = () => adoptEntry(history.state);

  document.addEventListener('click', onClick);
  window.addEventListener('popstate', onPopState);
  window.addEventListener('hashchange', onHashChange);
  window.addEventListener('scrollend', saveSpot);
  // Where the page started (boot.ts restored it before the reader could scroll): this entry's now.
  if (startedAtPlace()) saveSpot();

  return {
    moduleForAnchor,
    navigate: (href) => go(new URL(href, location.href), 'push'),
    refresh: (route, show) =>
      new Promise<boolean>((resolve) => {
        const moduleUrl = moduleForPath(route.page.route);
        if (!moduleUrl) return resolve(false);
        replaceRouteModule(moduleUrl, route);
        if (!show || route.page.route !== currentPath) return resolve(false);
        render(route);
        resolve(true);
      }),
    stop() {
      document.removeEventListener('click', onClick);
      window.removeEventListener('popstate', onPopState);
      window.removeEventListener('hashchange', onHashChange);
      window.removeEventListener('scrollend', saveSpot);
    },
  };
}
