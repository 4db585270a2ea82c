/**
 * What a page costs before it counts as loaded, as a reader's Chromium pays it over pybook's own
 * server (compressed as a static host serves it): the bytes transferred before the `load` event,
 * by kind, and when the app had hydrated the page (html[data-hydrated]) after that event. Issue 44
 * compares the first figure with Astro Starlight's page of the same chapter (44.1 KB en, 45.6 KB zh-cn).
 */
import type { Browser, CDPSession } from 'playwright-core';

export interface BeforeLoad {
  url: string;
  /** Bytes on the wire (headers and compressed bodies) of the responses finished before `load`. */
  bytes: number;
  /** The same by resource type (Document, Script, Stylesheet, Fetch, …). */
  byType: Record<string, number>;
  /** Responses finished before `load`: their URL paths, in order. */
  requests: string[];
  /** Milliseconds from navigation start to `load`, and to the app's hydration marker. */
  loadMs: number;
  hydratedMs: number;
}

/** Loads `url` in a fresh context (empty cache) and measures it. */
export async function measureBeforeLoad(browser: Browser, url: string): Promise<BeforeLoad> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const cdp: CDPSession = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const types = new Map<string, { type: string; url: string }>();
    const finished: { id: string; bytes: number }[] = [];
    let loaded = false;
    cdp.on('Network.requestWillBeSent', (event) =>
      types.set(event.requestId, { type: event.type ?? 'Other', url: event.request.url }),
    );
    cdp.on('Network.loadingFinished', (event) => {
      if (!loaded) finished.push({ id: event.requestId, bytes: event.encodedDataLength });
    });
    page.on('load', () => (loaded = true));
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('html[data-hydrated]', { state: 'attached', timeout: 60_000 });
    const timing = await page.evaluate(() => {
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const marker = performance.getEntriesByName('pybook:hydrated')[0];
      return { load: navigation.loadEventStart, hydrated: marker ? marker.startTime : performance.now() };
    });
    const byType: Record<string, number> = {};
    for (const { id, bytes } of finished) {
      const type = types.get(id)?.type ?? 'Other';
      byType[type] = (byType[type] ?? 0) + bytes;
    }
    return {
      url,
      bytes: finished.reduce((sum, f) => sum + f.bytes, 0),
      byType,
      requests: finished.map((f) => new URL(types.get(f.id)?.url ?? 'about:blank').pathname),
      loadMs: Math.round(timing.load),
      hydratedMs: Math.round(timing.hydrated),
    };
  } finally {
    await context.close();
  }
}

/** The pages issue 44 names: two chapters and the home page, in both languages. */
export const FIRST_LOAD_PAGES = [
  'dictionary/',
  'hello-world/',
  '',
  'zh-cn/dictionary/',
  'zh-cn/hello-world/',
  'zh-cn/',
];

/** Each of FIRST_LOAD_PAGES over pybook's server of `siteDir`, in one Chromium. */
export async function measureFirstLoads(siteDir: string, basePath: string): Promise<BeforeLoad[]> {
  const { launchChromium } = await import('../test/helpers/browser.js');
  const { startStaticServer } = await import('../src/server/static-server.js');
  const [browser, server] = await Promise.all([
    launchChromium(),
    startStaticServer({ dir: siteDir, basePath, port: 0, localeDirs: ['zh-cn'], log: () => {} }),
  ]);
  try {
    const results: BeforeLoad[] = [];
    for (const page of FIRST_LOAD_PAGES) results.push(await measureBeforeLoad(browser, `${server.url}${page}`));
    return results;
  } finally {
    await Promise.all([browser.close(), server.close()]);
  }
}
