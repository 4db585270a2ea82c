/**
 * What a page loads before it counts as loaded: a few kilobytes that make the static page work
 * (content buttons, tabs, the colour mode kept in step, the reader's place) and start the app
 * after the page is shown. The page is complete as the server rendered it: links are links, the
 * sidebar's categories and the folded table of contents are native disclosures, the search box is
 * a form. React and the app (hydrate.tsx, with the site data) load once the page has loaded and
 * the browser is idle, or at once on a sign the reader wants them: pointing at or focusing a link
 * or a control of the shell, the search box's shortcut. Nothing the reader does meanwhile is lost
 * (before-hydration.ts).
 */
import { installContentEvents } from './core/content-events.js';
import { holdShellClicks } from './core/before-hydration.js';
import { takeStartingPlace } from './page-place.js';
import { focusSearchBox, isSearchShortcut } from './core/search-shortcut.js';
import { syncColorMode } from './preferences.js';
import { normalizePath } from './route-modules.js';

// /x/index.html and /x.html show the page of /x/: show the clean URL too (404.html stays as it is).
if (!location.pathname.endsWith('/404.html')) {
  const clean = normalizePath(location.pathname);
  if (clean !== location.pathname) history.replaceState(history.state, '', clean + location.search + location.hash);
}

takeStartingPlace();
syncColorMode();
installContentEvents();

// Close an open dropdown (language menu) when the reader clicks elsewhere or presses Escape.
document.addEventListener('click', (event) => {
  for (const open of document.querySelectorAll('details.dropdown[open]'))
    if (!open.contains(event.target as Node)) open.removeAttribute('open');
});
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  for (const open of document.querySelectorAll('details.dropdown[open]')) {
    open.removeAttribute('open');
    open.querySelector('summary')?.focus();
  }
});

let started = false;
/** Loads the app and hydrates the page (once); a failure leaves the static page as it is. */
function startApp(): void {
  if (started) return;
  started = true;
  import('./hydrate.js')
    .then((app) => app.hydrate())
    .catch((error: unknown) => console.error(`pybook: the page stays static: ${(error as Error).message}`));
}

holdShellClicks(startApp);

const hydrated = () => document.documentElement.hasAttribute('data-hydrated');

// Signs of intent: a link or a shell control pointed at, focused or touched (the app's client-side
// navigation, prefetching and menus then arrive in time), the search box's keys.
const intent = (event: Event) => {
  const target = event.target as Element | null;
  if (target?.closest?.('a[href], #__pybook button, #__pybook input, #__pybook summary')) startApp();
};
for (const type of ['pointerover', 'focusin', 'touchstart']) document.addEventListener(type, intent, { passive: true });
document.addEventListener('keydown', (event) => {
  if (hydrated() || !isSearchShortcut(event)) return;
  // As the app's search box does: the box takes the keys, and the app arrives to search.
  const input = document.getElementById('navbar-search-input') as HTMLInputElement | null;
  if (!input) return;
  event.preventDefault();
  focusSearchBox(input);
  startApp();
});

// Otherwise once the page has loaded and the browser has a moment.
const whenIdle = () =>
  window.requestIdleCallback
    ? window.requestIdleCallback(startApp, { timeout: 3000 })
    : window.setTimeout(startApp, 200);
if (document.readyState === 'complete') whenIdle();
else window.addEventListener('load', whenIdle, { once: true });
