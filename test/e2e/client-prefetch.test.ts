import { describe, expect, it } from 'vitest';
import {
  PAGE_MODULE,
  expectNextFromDictionaryToLoadInFull,
  gotoHydrated,
  markWindow,
  openPage,
  pageModuleSlug,
  recordModuleRequests,
  useSiteUnderTest,
  windowMarkerKept,
} from './client-support.js';

const site = useSiteUnderTest();

const LOCALES = [
  { prefix: '', locale: 'en' },
  { prefix: 'zh-cn/', locale: 'zh-cn' },
] as const;

/** Makes the browser report a slow or data-saving connection (prefetching must then stay off). */
const connectionScript = (connection: { effectiveType: string; saveData: boolean }) =>
  `Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => (${JSON.stringify(connection)}) });`;

describe('prefetching', () => {
  it('prefetches the modules of links in the viewport before any click (en, zh-cn)', async () => {
    for (const { prefix, locale } of LOCALES) {
      const { context, page, problems } = await openPage(site);
      const modules = recordModuleRequests(page);
      // A late chapter: the sidebar opens scrolled to it, so its neighbours there are in view and the
      // book's first chapters are not.
      await gotoHydrated(page, site.url(`${prefix}task-book-store/`));
      await expect.poll(() => modules.includes(`${locale}/task-top-50-in-github`), { timeout: 5000 }).toBe(true);
      await page.waitForTimeout(300);
      expect(modules).not.toContain(`${locale}/how-to-use-the-book`);
      await page.locator('.sidebar-nav').evaluate((nav) => {
        nav.scrollTop = 0;
      });
      await expect.poll(() => modules.includes(`${locale}/how-to-use-the-book`), { timeout: 5000 }).toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('prefetches a hovered link', async () => {
    const { context, page } = await openPage(site);
    // Without IntersectionObserver only hover (and focus) prefetch.
    await page.addInitScript('delete window.IntersectionObserver;');
    const modules = recordModuleRequests(page);
    await gotoHydrated(page, site.url('dictionary/'));
    await page.waitForTimeout(300);
    expect(modules).toEqual([]);
    await page.locator('.pagination-next').hover();
    await expect.poll(() => modules, { timeout: 5000 }).toEqual(['en/set']);
    await context.close();
  });

  for (const connection of [
    { effectiveType: '2g', saveData: false },
    { effectiveType: '4g', saveData: true },
  ]) {
    it(`does not prefetch on ${connection.saveData ? 'save-data' : '2g'} connections, yet navigation still works`, async () => {
      const { context, page, problems } = await openPage(site);
      await page.addInitScript(connectionScript(connection));
      const modules = recordModuleRequests(page);
      await gotoHydrated(page, site.url('dictionary/'));
      await page.locator('.pagination-next').scrollIntoViewIfNeeded();
      await page.locator('.pagination-next').hover();
      await page.waitForTimeout(500);
      expect(modules).toEqual([]);
      await markWindow(page);
      await page.locator('.pagination-next').click();
      await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Sets');
      expect(modules).toEqual(['en/set']);
      expect(await windowMarkerKept(page)).toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('when the preload fails a warning is logged and the page loads in full instead', async () => {
    const { context, page, problems } = await openPage(site);
    await page.route(PAGE_MODULE, (route) =>
      pageModuleSlug(route.request()) === 'en/set' ? route.abort() : route.continue(),
    );
    await expectNextFromDictionaryToLoadInFull(site, page);
    expect(problems.filter((p) => p.startsWith('warning:') && p.includes('/set/'))).toHaveLength(1);
    await context.close();
  });
});

describe('progress bar', () => {
  /** Records whether #pybook-progress ever appears, and whether it is gone now. */
  const WATCH_PROGRESS = `
    window.__progressSeen = false;
    new MutationObserver(() => { if (document.getElementById('pybook-progress')) window.__progressSeen = true; })
      .observe(document, { childList: true, subtree: true });`;

  it('appears when a route change takes longer than 200 ms and is removed when it completes', async () => {
    const { context, page, problems } = await openPage(site);
    await page.addInitScript(connectionScript({ effectiveType: '4g', saveData: true })); // no prefetch: the click pays the delay
    await page.addInitScript(WATCH_PROGRESS);
    // The route change lasts until the test lets it end, after it has seen the bar (whose own code
    // loads on the first navigation, which a busy machine may take long over): a slow change,
    // however slow the machine is.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(PAGE_MODULE, async (route) => {
      await released;
      await route.continue();
    });
    await gotoHydrated(page, site.url('dictionary/'));
    await page.locator('.pagination-next').click();
    await page.waitForSelector('#pybook-progress', { timeout: 60_000 });
    expect(await page.locator('main h1').textContent()).toBe('Dictionaries'); // still loading
    release();
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Sets');
    await page.waitForSelector('#pybook-progress', { state: 'detached', timeout: 30_000 });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('never shows for a fast navigation', async () => {
    const { context, page, problems } = await openPage(site);
    await page.addInitScript(WATCH_PROGRESS);
    const modules = recordModuleRequests(page);
    await gotoHydrated(page, site.url('dictionary/'));
    await page.locator('.pagination-next').hover();
    await expect.poll(() => modules.includes('en/set')).toBe(true);
    await page.waitForLoadState('networkidle');
    await page.locator('.pagination-next').click();
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Sets');
    await page.waitForTimeout(400);
    expect(await page.evaluate(() => (window as Window & { __progressSeen?: boolean }).__progressSeen)).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });
});
