/**
 * Reading offline (src/offline/) in headless Chromium, on the real book: a chapter the reader
 * opened opens offline; "Make available offline" keeps a whole language, after which, with the
 * network off, unvisited chapters open (by address and from the sidebar), search answers in both
 * languages, the language switch works, Python and JavaScript examples run and an exercise is
 * checked; a page not kept shows the offline page; the sandbox framed through the launcher reaches
 * no network and no storage. Every wait is for a condition.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';
import { LONG, makeAvailableOffline, openOfflinePanel, storedUrls, waitForWorker } from './offline-support.js';
import { runBlock, runCode, runnable } from './runner-support.js';

const site = useSiteUnderTest();

/** Runs a block (after putting `code` in its editor, when given) and waits until the run has ended. */
const run = async (block: Locator, code?: string) => (code === undefined ? runBlock(block) : runCode(block, code));

const h1 = (page: Page) => page.locator('main h1').first().textContent();

describe('a chapter the reader opened, with the network off', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await openPage(site, { serviceWorkers: 'allow' }));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('opens again, and a page never opened shows the offline page listing what is kept', async () => {
    await gotoHydrated(page, site.url('dictionary/'));
    const title = await h1(page);
    await waitForWorker(page);
    // The page loaded before the worker was in charge: the worker stores it when the page tells it.
    await expect
      .poll(async () => (await storedUrls(page)).some((url) => url.startsWith(site.url('dictionary/'))), {
        timeout: 30_000,
      })
      .toBe(true);
    await context.setOffline(true);
    await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
    await page.reload();
    await page.waitForSelector('html[data-hydrated]', { state: 'attached', timeout: 30_000 });
    expect(await h1(page)).toBe(title);

    const response = await page.goto(site.url('set/'));
    expect(response?.status()).toBe(503);
    expect(await page.title()).toBe('You are offline');
    const kept = page.locator('main .offline-pages a');
    expect(await kept.allTextContents()).toContain(title);
    await kept.filter({ hasText: title! }).click();
    await page.waitForURL(site.url('dictionary/'));
    expect(await h1(page)).toBe(title);
    await context.setOffline(false);
  });
});

describe('"Make available offline", then the network off', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    ({ context, page, problems } = await openPage(site, { serviceWorkers: 'allow' }));
    context.setDefaultTimeout(30_000);
  });
  afterAll(async () => {
    await context?.close();
  });

  it(
    'says what it takes, then saves English and Chinese with a progress bar',
    async () => {
      await gotoHydrated(page, site.url('dictionary/'));
      const panel = await openOfflinePanel(page, 'en');
      const en = panel.locator('.offline-locale[data-locale="en"]');
      // Its size before it starts.
      expect(await en.locator('.offline-size').textContent()).toMatch(
        /^About [\d.]+ MB to download, [\d.]+ MB on this device$/,
      );
      await en.locator('button.button-primary').click();
      // The progress bar, or (on a fast local server) the saved state straight away.
      await panel
        .locator('.offline-locale[data-locale="en"]:is([data-state="downloading"], [data-state="saved"])')
        .waitFor();
      await panel.locator('.offline-locale[data-locale="en"][data-state="saved"]').waitFor({ timeout: LONG });
      expect(await en.textContent()).toMatch(/Available offline \([\d.]+ MB on this device\)/);
      await makeAvailableOffline(panel, 'zh-cn');
      // Only the site's own files are stored, and under the book's base path.
      const urls = await storedUrls(page);
      expect(urls.length).toBeGreaterThan(250);
      expect(urls.filter((url) => !url.startsWith(site.url()))).toEqual([]);
    },
    LONG,
  );

  it('opens three chapters never visited, by address and from the sidebar', async () => {
    await context.setOffline(true);
    // Nothing from the browser's HTTP cache: what opens comes from the worker's store.
    await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
    problems.length = 0;
    for (const slug of ['set/', 'if-statement/']) {
      await gotoHydrated(page, site.url(slug));
      expect(await page.locator('meta[name="pybook-build"]').count()).toBe(1);
      expect(await page.title()).not.toBe('You are offline');
    }
    expect(await h1(page)).toBe('The if statement');
    await page.locator('.sidebar a.sidebar-link[href$="/json-module/"]').first().click();
    await page.waitForURL(site.url('json-module/'));
    await expect.poll(() => h1(page)).toBe('The json module');
    expect(problems).toEqual([]);
  });

  it('searches in both languages and switches language', async () => {
    const input = page.locator('#navbar-search-input');
    await input.fill('dictionary');
    await page.locator('.search-dropdown .search-result [role="option"]').first().waitFor();
    expect(await page.locator('.search-dropdown .search-result [role="option"]').count()).toBeGreaterThan(0);
    await input.fill('');
    await page.keyboard.press('Escape');
    // The language switch, offline: the Chinese page of the same chapter.
    await page.locator('.language-dropdown summary').click();
    await page.locator('.language-dropdown a[hreflang="zh-CN"]').click();
    await page.waitForURL(site.url('zh-cn/json-module/'));
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    await input.fill('字典');
    await page.locator('.search-dropdown .search-result [role="option"]').first().waitFor();
    expect(await page.locator('.search-dropdown .search-result [role="option"]').count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it(
    'runs a Python and a JavaScript example',
    async () => {
      await gotoHydrated(page, site.url('dictionary/'));
      const python = await run(runnable(page, 'python').first());
      expect(python.verdict).toBe('matches');
      const javascript = await run(runnable(page, 'javascript').first());
      expect(javascript.verdict).toBe('matches');
      // Run through the launcher: a same-origin frame the worker serves, holding the opaque-origin sandbox.
      const frames = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLIFrameElement>('iframe.code-run-sandbox')].map((f) => ({
          src: f.getAttribute('src'),
          sandbox: f.getAttribute('sandbox'),
          inner: f.contentDocument?.querySelector('iframe')?.getAttribute('sandbox'),
        })),
      );
      expect(frames.length).toBeGreaterThan(0);
      for (const frame of frames) {
        expect(frame.src).toMatch(/\/assets\/runner\/launcher\.[0-9a-f]+\/$/);
        expect(frame.inner).toBe('allow-scripts');
      }
      expect(problems).toEqual([]);
    },
    LONG,
  );

  it(
    'edits and checks an exercise',
    async () => {
      await gotoHydrated(page, site.url('lists-and-tuples/'));
      const block = page.locator('.markdown .code-block[data-exercise="starter"]');
      await block.locator('button[data-code-action=edit]').click();
      await block
        .locator('.code-editor .cm-content')
        .fill(
          [
            'def rank_sales(sales):',
            '    ranked = sorted(sales, key=lambda item: item[1], reverse=True)',
            '    return ranked[:3], sorted(product for product, _ in ranked[3:])',
          ].join('\n'),
        );
      await block.locator('button[data-code-action=check]').click();
      const summary = block.locator('.exercise-results .exercise-summary');
      await summary.waitFor({ state: 'attached', timeout: 240_000 });
      expect(await summary.getAttribute('data-passed')).toBe('true');
      expect(problems).toEqual([]);
    },
    LONG,
  );

  it(
    "the launcher's sandbox reaches no network and no storage, offline or online",
    async () => {
      for (const offline of [true, false]) {
        await context.setOffline(offline);
        await gotoHydrated(page, site.url('dictionary/'));
        const own = site.url('assets/probe-from-python');
        const result = await run(
          runnable(page, 'python').first(),
          [
            'import js',
            'from pyodide.code import run_js',
            'try:',
            '    request = js.XMLHttpRequest.new()',
            `    request.open("GET", "${own}", False)`,
            '    request.send()',
            '    print("reached")',
            'except Exception:',
            '    print("blocked")',
            'try:',
            '    js.indexedDB.open("pybook-probe")',
            '    print("indexedDB open")',
            'except Exception:',
            '    print("indexedDB blocked")',
            'try:',
            '    run_js("caches.open(\'pybook-probe\')")',
            '    print("caches open")',
            'except Exception:',
            '    print("caches blocked")',
            'print(js.eval("self.location.origin"))',
          ].join('\n'),
        );
        expect(result.output.trim().split('\n')).toEqual(['blocked', 'indexedDB blocked', 'caches blocked', 'null']);
        expect(await page.evaluate(async () => (await caches.keys()).includes('pybook-probe'))).toBe(false);
      }
    },
    LONG,
  );

  it('removes a language again', async () => {
    await gotoHydrated(page, site.url('zh-cn/'));
    const panel = await openOfflinePanel(page, 'zh-cn');
    const zh = panel.locator('.offline-locale[data-locale="zh-cn"]');
    await zh.locator('button.button-secondary').click();
    await panel.locator('.offline-locale[data-locale="zh-cn"][data-state="none"]').waitFor();
    const urls = await storedUrls(page);
    // The Chinese pages are gone (but for the one this page loaded, kept as any page read is); the English ones stay.
    expect(urls.filter((url) => url.includes('/zh-cn/') && !url.includes('/assets/')).length).toBeLessThanOrEqual(1);
    expect(urls.some((url) => url.startsWith(site.url('json-module/')))).toBe(true);
  });
});
