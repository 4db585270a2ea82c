import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import type { ClientPage, SiteData } from '../shared/model/page.js';
import { installContentEvents } from './core/content-events.js';
import { rememberDocsVersion, syncColorMode } from './preferences.js';
import { normalizePath } from './route-modules.js';
import { Root } from './Root.js';

/** The page's inline data: its own model, and where the locale's shared site data is (preloaded by the head). */
interface BootData {
  siteDataUrl: string;
  page: ClientPage;
}

const data = JSON.parse(document.getElementById('__PYBOOK_DATA__')!.textContent) as BootData;

// /x/index.html and /x.html show the page of /x/: show the clean URL too (404.html stays as it is).
if (!location.pathname.endsWith('/404.html')) {
  const clean = normalizePath(location.pathname);
  if (clean !== location.pathname) history.replaceState(history.state, '', clean + location.search + location.hash);
}

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

/**
 * Fetches the site data; until it arrives (or if it never does) the page works as static HTML.
 * The fetch starts a microtask later (`await Promise.resolve()`), once the module's top level has
 * returned: with DevTools or Lighthouse attached, the browser records each request's initiator
 * stack, and the module's top level on that stack makes V8 parse the whole bundle again for source
 * positions (20 ms of main thread here, inside the task that evaluates the modules).
 */
async function loadSiteData(url: string): Promise<SiteData> {
  await Promise.resolve();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load the site data ${url}: HTTP ${response.status}`);
  return (await response.json()) as SiteData;
}

const root = document.getElementById('__pybook')!;
// The content HTML is already in the DOM: read it back (as served, before anything marks it up)
// rather than shipping it a second time.
// The static part of the page (a chapter's content, the home page's sections) is read back from the DOM.
const html = root.querySelector('.markdown, .home-sections')?.innerHTML ?? '';
loadSiteData(data.siteDataUrl).then(
  (site) => {
    rememberDocsVersion(site.version.name);
    // As a transition, hydration yields to the browser every few milliseconds instead of holding
    // the main thread for the whole page (the sidebar alone has 45 links): a tap or a scroll
    // during start-up is answered at once, and no long task blocks the page.
    startTransition(() => {
      hydrateRoot(root, <Root site={site} page={data.page} html={html} />);
    });
  },
  (error: unknown) => console.error(`pybook: the page stays static: ${(error as Error).message}`),
);
