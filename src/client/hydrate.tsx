/**
 * The app: loaded by boot.ts after the page is shown, it fetches the locale's site data and
 * hydrates the server-rendered shell, which from then on is React's (client navigation,
 * prefetching, the search box's results, menus). The clicks held before (before-hydration.ts)
 * happen once it is there.
 */
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import type { ClientPage, SiteData } from '../shared/model/page.js';
import { hydrationBegins, replayHeldClicks } from './core/before-hydration.js';
import { rememberDocsVersion } from './preferences.js';
import { Root } from './Root.js';

/** The page's inline data: its own model, and where the locale's shared site data is. */
interface BootData {
  siteDataUrl: string;
  page: ClientPage;
}

async function loadSiteData(url: string): Promise<SiteData> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load the site data ${url}: HTTP ${response.status}`);
  return (await response.json()) as SiteData;
}

export async function hydrate(): Promise<void> {
  const data = JSON.parse(document.getElementById('__PYBOOK_DATA__')!.textContent) as BootData;
  const site = await loadSiteData(data.siteDataUrl);
  rememberDocsVersion(site.version.name);
  const root = document.getElementById('__pybook')!;
  // The static part of the page (a chapter's content, the home page's sections) is read back from
  // the DOM rather than shipped a second time.
  const html = root.querySelector('.markdown, .home-sections')?.innerHTML ?? '';
  hydrationBegins();
  // As a transition, hydration yields to the browser every few milliseconds instead of holding
  // the main thread for the whole page: a tap or a scroll meanwhile is answered at once.
  startTransition(() => {
    hydrateRoot(root, <Root site={site} page={data.page} html={html} onHydrated={replayHeldClicks} />);
  });
}
