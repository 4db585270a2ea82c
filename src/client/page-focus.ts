import { MAIN_CONTENT_ID } from '../shared/page-landmarks.js';

/**
 * Where focus and scrolling go when the page changes under the reader (the router's two concerns
 * that screen-reader and keyboard users feel most).
 */

/**
 * After a client navigation, focus moves to the new page's title (its `h1`, else `main`): a screen
 * reader starts reading there and Tab continues into the page, as after a page load that put the
 * reader at the title. The heading gets tabindex=-1 so that it can take focus without becoming a Tab stop.
 */
export function focusNewPage(): void {
  const main = document.getElementById(MAIN_CONTENT_ID);
  const heading = main?.querySelector<HTMLElement>('h1');
  if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  (heading ?? main)?.focus({ preventScroll: true });
}

/**
 * Smooth scrolling is for in-page links only: the stylesheet turns it on under this class (and
 * never under prefers-reduced-motion). Left off on load, a URL with a #heading lands on it at once
 * instead of gliding down from the top.
 */
export function smoothScrollFromNowOn(): void {
  document.documentElement.classList.add('in-page-scroll');
}
