import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { RunningServer } from '../../src/server/static-server.js';
import type { SiteData } from '../../src/shared/model/page.js';
import { BASE_PATH, launchChromium, newContext, nextFrames, serveSite, watchConsole } from '../helpers/browser.js';

/** One browser and one server per test file (the machine has two cores). */
export interface SiteUnderTest {
  browser: Browser;
  server: RunningServer;
  /** Absolute URL of a path under the base path, e.g. url('dictionary/'). */
  url(path?: string): string;
  close(): Promise<void>;
}

export async function startSiteUnderTest(): Promise<SiteUnderTest> {
  const [browser, server] = await Promise.all([launchChromium(), serveSite()]);
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    browser,
    server,
    url: (path = '') => `${origin}${BASE_PATH}${path}`,
    async close() {
      await Promise.all([browser.close(), server.close()]);
    },
  };
}

/**
 * The site under test for the calling test file: started before its first test, stopped after
 * its last. Its members may be used inside tests (not at the file's top level).
 */
export function useSiteUnderTest(): SiteUnderTest {
  let site: SiteUnderTest | undefined;
  beforeAll(async () => {
    site = await startSiteUnderTest();
  });
  afterAll(async () => {
    await site?.close();
  });
  const started = (): SiteUnderTest => {
    if (!site) throw new Error('the site under test starts in beforeAll: use it inside a test');
    return site;
  };
  return {
    get browser() {
      return started().browser;
    },
    get server() {
      return started().server;
    },
    url: (path) => started().url(path),
    close: () => started().close(),
  };
}

export interface OpenPage {
  context: BrowserContext;
  page: Page;
  problems: string[];
}

/** A fresh context (empty storage) with one page whose console problems are collected. */
export async function openPage(site: SiteUnderTest, options: Parameters<typeof newContext>[1] = {}): Promise<OpenPage> {
  const context = await newContext(site.browser, options);
  // Well under the test timeout, so a failure names the step that waited.
  context.setDefaultTimeout(8000);
  const page = await context.newPage();
  return { context, page, problems: watchConsole(page) };
}

/**
 * Waits until the client has hydrated the page and its router listens (Root sets the marker). The
 * app loads once the page has loaded and the browser is idle (src/client/boot.ts): on a busy
 * machine that takes a while, so the wait is long, and ends as soon as the marker is there.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForSelector('html[data-hydrated]', { state: 'attached', timeout: 60_000 });
}

export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await waitForHydration(page);
}

/** Page modules of client-side routes: assets/pages/<locale>/<slug>.<hash>.js. */
export const PAGE_MODULE = /\/assets\/pages\/(en|zh-cn)\/([^/]+)\.[0-9a-f]+\.js$/;

export function pageModuleSlug(request: Request | string): string | undefined {
  const url = typeof request === 'string' ? request : request.url();
  const match = PAGE_MODULE.exec(new URL(url).pathname);
  return match ? `${match[1]}/${match[2]}` : undefined;
}

/** Records the page modules the page requests, as "en/dictionary". */
export function recordModuleRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const slug = pageModuleSlug(request);
    if (slug) seen.push(slug);
  });
  return seen;
}

/** A marker that only survives if the document is never reloaded. */
export async function markWindow(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as Window & { __pybookMarker?: string }).__pybookMarker = 'kept';
  });
}

export async function windowMarkerKept(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as Window & { __pybookMarker?: string }).__pybookMarker === 'kept');
}

export { BASE_PATH, nextFrames };

/** The site data the page hydrated with: the locale's shared file named by the page's inline data. */
export async function siteDataOf(page: Page): Promise<SiteData> {
  return page.evaluate(async () => {
    const { siteDataUrl } = JSON.parse(document.getElementById('__PYBOOK_DATA__')!.textContent) as {
      siteDataUrl: string;
    };
    return (await (await fetch(siteDataUrl)).json()) as SiteData;
  });
}

/**
 * From the dictionary chapter, follows "Next" and checks that the sets chapter arrived as a full
 * page load (a fresh window) rather than a client-side swap: the fallback when a page module fails.
 */
export async function expectNextFromDictionaryToLoadInFull(site: SiteUnderTest, page: Page): Promise<void> {
  await gotoHydrated(page, site.url('dictionary/'));
  await markWindow(page);
  await page.locator('.pagination-next').click();
  await page.waitForURL(site.url('set/'));
  await waitForHydration(page);
  expect(await windowMarkerKept(page)).toBe(false);
  expect(await page.locator('main h1').textContent()).toBe('Sets');
}
