import { useEffect, useRef, useState, useSyncExternalStore } from 'react';

export const DESKTOP_BREAKPOINT = 996;

const noChanges = () => () => {};

/**
 * A value only the browser can know and that stays the same while the page is open (the platform,
 * the address the site was opened at). The server renders `onServer`, hydration starts from it so
 * that the client's first render matches the server's HTML, and the browser's value follows at once.
 */
export function useBrowserValue<T>(inBrowser: () => T, onServer: T): T {
  return useSyncExternalStore(noChanges, inBrowser, () => onServer);
}

/**
 * What the reader does to scroll: the wheel, a touch, a press (on the scrollbar too), a scrolling
 * key outside a text field (typing in the search box or an editor is not scrolling, though the
 * browser may move the page to keep the caret in view). A scroll within a second of one of them,
 * or continuing one (momentum sends scroll events for a while after the finger has left), is the
 * reader's; any other scroll is the browser's or a script's.
 */
const READER_SCROLL_INPUTS = ['wheel', 'touchstart', 'touchmove', 'pointerdown'] as const;
const SCROLL_KEYS = new Set(['PageDown', 'PageUp', 'Home', 'End', 'ArrowDown', 'ArrowUp', ' ']);
const inTextField = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || target.matches('input, textarea, select'));
const INPUT_STARTS_SCROLL_MS = 1000;
const SCROLL_CONTINUES_MS = 200;

/**
 * Hides the navbar while the reader scrolls down and shows it again on the way up. Only the reader's
 * scrolls move it: the browser also changes scrollY by itself (scroll anchoring keeps the text in
 * view while deferred blocks above it are laid out, a script restores a place), and a navbar that
 * slides away while nobody touched the page is a surprise, and moves what the reader was about to click.
 */
export function useHideOnScroll(enabled: boolean): boolean {
  const [hidden, setHidden] = useState(false);
  const last = useRef(0);
  useEffect(() => {
    if (!enabled) return;
    let readerScrollUntil = 0;
    const onInput = () => {
      readerScrollUntil = Math.max(readerScrollUntil, performance.now() + INPUT_STARTS_SCROLL_MS);
    };
    const onKey = (event: KeyboardEvent) => {
      if (SCROLL_KEYS.has(event.key) && !inTextField(event.target)) onInput();
    };
    const onScroll = () => {
      const y = window.scrollY;
      const now = performance.now();
      const byReader = now <= readerScrollUntil;
      if (byReader) readerScrollUntil = Math.max(readerScrollUntil, now + SCROLL_CONTINUES_MS);
      const navbarHeight = 60;
      if (y < navbarHeight) setHidden(false);
      else if (byReader && Math.abs(y - last.current) > 8) setHidden(y > last.current);
      last.current = y;
    };
    for (const type of READER_SCROLL_INPUTS) window.addEventListener(type, onInput, { passive: true, capture: true });
    window.addEventListener('keydown', onKey, { passive: true, capture: true });
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      for (const type of READER_SCROLL_INPUTS) window.removeEventListener(type, onInput, { capture: true });
      window.removeEventListener('keydown', onKey, { capture: true });
      window.removeEventListener('scroll', onScroll);
    };
  }, [enabled]);
  return hidden;
}

/** The heading nearest above the top of the viewport, for the table of contents. */
export function useActiveHeading(ids: string[], routeKey: string): string | undefined {
  const [active, setActive] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (!ids.length) return;
    let frame = 0;
    const update = () => {
      frame = 0;
      let current: string | undefined;
      // At the foot of the page the last headings can never reach the top: the lowest one in view wins.
      const atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
      const line = atBottom ? window.innerHeight : 100;
      for (const id of ids) {
        const element = document.getElementById(id);
        if (element && element.getBoundingClientRect().top <= line) current = id;
      }
      setActive(current ?? ids[0]);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [routeKey]); // eslint-disable-line react-hooks/exhaustive-deps
  return active;
}

/** The mobile menu: closes when the window grows past the desktop breakpoint and on back navigation. */
export function useMobileMenu(routeKey: string): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(false);
  // A navigation closes it, while the new route renders (menuRoute: the route of the last render).
  const [menuRoute, setMenuRoute] = useState(routeKey);
  if (menuRoute !== routeKey) {
    setMenuRoute(routeKey);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const onResize = () => {
      if (window.innerWidth > DESKTOP_BREAKPOINT) setOpen(false);
    };
    const onPop = () => setOpen(false);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    window.addEventListener('resize', onResize);
    window.addEventListener('popstate', onPop);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('resize', onResize);
      window.removeEventListener('popstate', onPop);
      window.removeEventListener('keydown', onKey);
    };
  }, [open]);
  return [open, setOpen];
}

/** Where the reader's choice to hide the desktop sidebar is kept (the head script reads it too). */
export const SIDEBAR_KEY = 'pybook-sidebar';

/**
 * Whether the desktop sidebar is hidden, remembered across pages and reloads. The head script sets
 * html[data-sidebar="hidden"] before the first paint, so a hidden sidebar never flashes in; the
 * state follows it once the page is interactive (the server renders it shown), and the reader's
 * own choice after that.
 */
export function useSidebarHidden(): [boolean, (hidden: boolean) => void] {
  const hiddenAtLoad = useBrowserValue(() => document.documentElement.dataset.sidebar === 'hidden', false);
  const [choice, setChoice] = useState<boolean>();
  const update = (next: boolean) => {
    setChoice(next);
    if (next) document.documentElement.dataset.sidebar = 'hidden';
    else delete document.documentElement.dataset.sidebar;
    try {
      localStorage.setItem(SIDEBAR_KEY, next ? 'hidden' : 'shown');
    } catch {
      /* storage disabled: the choice lasts for this page */
    }
  };
  return [choice ?? hiddenAtLoad, update];
}
