import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PAGE_MODULE, gotoHydrated, nextFrames, openPage, pageModuleSlug, useSiteUnderTest } from './client-support.js';

const site = useSiteUnderTest();

const LOCALES = [
  { prefix: '', locale: 'en', crashed: 'This page crashed.', tryAgain: 'Try again', retry: 'Retry', setTitle: 'Sets' },
  { prefix: 'zh-cn/', locale: 'zh-cn', crashed: '页面崩溃了。', tryAgain: '重试', retry: '重试', setTitle: '集合' },
] as const;

/**
 * Serves the real "set" module with its breadcrumbs replaced by a getter that throws while
 * window.__breakPage is set: rendering the chapter then fails like a real render bug would.
 */
async function breakSetModule(page: Page, locale: string) {
  await page.route(PAGE_MODULE, async (route) => {
    if (pageModuleSlug(route.request()) !== `${locale}/set`) return route.continue();
    const real = await (await route.fetch()).text();
    expect(real.startsWith('export default ')).toBe(true);
    const body = `const route = ${real.slice('export default '.length).replace(/;?\s*$/, '')};
const breadcrumbs = route.page.breadcrumbs;
Object.defineProperty(route.page, 'breadcrumbs', { get() { if (window.__breakPage) throw new Error('Render failed on purpose'); return breadcrumbs; } });
export default route;`;
    return route.fulfill({ contentType: 'text/javascript', body });
  });
}

/**
 * Clicks a link at the foot of a long chapter as a reader taps it: once it is in view and the
 * blocks that scrolled in with it are laid out (content-visibility), not while they take their
 * real heights under the pointer.
 */
async function clickSettled(page: Page, selector: string) {
  const link = page.locator(selector);
  await link.scrollIntoViewIfNeeded();
  await nextFrames(page);
  await link.click();
}

describe('render errors', () => {
  for (const { prefix, locale, crashed, tryAgain, setTitle } of LOCALES) {
    it(`show "${crashed}" with "${tryAgain}", and the page recovers (${locale})`, async () => {
      // Reduced motion: no smooth scrolling for Playwright to chase on the long page after recovery.
      const { context, page, problems } = await openPage(site, { reducedMotion: 'reduce' });
      await breakSetModule(page, locale);
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      await page.evaluate(() => {
        (window as Window & { __breakPage?: boolean }).__breakPage = true;
      });
      await page.locator('.pagination-next').click();
      const screen = page.locator('main .error-screen');
      await screen.waitFor();
      expect(await screen.locator('h1').textContent()).toBe(crashed);
      expect(await screen.locator('.error-message').textContent()).toContain('Render failed on purpose');
      // The rest of the page still works: navbar and sidebar are outside the boundary.
      expect(await page.locator('nav.navbar').isVisible()).toBe(true);
      expect(await page.locator('aside.sidebar a.sidebar-link').count()).toBeGreaterThan(30);
      expect(problems.some((p) => p.includes('Render failed on purpose'))).toBe(true);

      // Still broken: "Try again" renders again and fails again.
      await screen.getByRole('button', { name: tryAgain }).click();
      await screen.waitFor();
      // Fixed: "Try again" shows the page.
      await page.evaluate(() => {
        (window as Window & { __breakPage?: boolean }).__breakPage = false;
      });
      await screen.getByRole('button', { name: tryAgain }).click();
      await page.waitForFunction((title) => document.querySelector('main h1')?.textContent === title, setTitle);
      expect(await screen.count()).toBe(0);

      // A crash is cleared by moving to another page too. (Break the page only once it is left:
      // any re-render of the broken page, e.g. the navbar hiding while Playwright scrolls to a
      // link, would crash it under the click.)
      await clickSettled(page, '.pagination-previous');
      await page.waitForURL(/\/dictionary\/$/);
      await page.evaluate(() => {
        (window as Window & { __breakPage?: boolean }).__breakPage = true;
      });
      await clickSettled(page, '.pagination-next');
      await screen.waitFor();
      await page.locator(`aside.sidebar a.sidebar-link[href$="/${prefix}dictionary/"]`).click();
      await page.waitForURL(/\/dictionary\/$/);
      await page.waitForFunction(
        () => !document.querySelector('main .error-screen') && document.querySelector('main .markdown'),
      );
      await context.close();
    });
  }
});

describe('failed lazy chunks', () => {
  const SCENARIOS = [
    // The search interface's own module fails, and everything it imports.
    { what: 'the search module fails', pattern: /\/assets\/(search-ui|chunk)\.[^/]+\.js(\?.*)?$/ },
    // The module itself arrives but a chunk it imports does not: a browser remembers such a failed
    // module graph for its URLs, so Retry must not simply import the same URL again.
    { what: 'only a chunk it imports fails', pattern: /\/assets\/chunk\.[^/]+\.js(\?.*)?$/ },
  ];
  for (const { prefix, locale, retry } of LOCALES) {
    for (const { what, pattern } of SCENARIOS) {
      it(`${what}: its message shows with "${retry}", and Retry loads search (${locale})`, async () => {
        const { context, page } = await openPage(site);
        await gotoHydrated(page, site.url(`${prefix}dictionary/`));
        // Requests fail from now on: the search interface is only loaded on hover or focus.
        const failed: string[] = [];
        await page.route(pattern, (route) => {
          failed.push(route.request().url());
          return route.fulfill({ status: 500, body: 'chunk unavailable' });
        });
        await page.locator('#navbar-search-input').focus();
        const box = page.locator('.navbar .chunk-error');
        await box.waitFor({ timeout: 20_000 });
        expect(failed.length).toBeGreaterThan(0);
        const message = await box.locator('.chunk-error-message').textContent();
        expect(message).toMatch(/import|fetch|module/i);
        // The page itself is intact.
        expect(await page.locator('main .markdown').isVisible()).toBe(true);
        expect(await page.locator('#navbar-search-input').isVisible()).toBe(true);

        await page.unrouteAll({ behavior: 'wait' });
        await box.getByRole('button', { name: retry }).click();
        await box.waitFor({ state: 'detached', timeout: 20_000 });
        // Search really works now.
        await page.locator('#navbar-search-input').fill('dict');
        await page.locator('#search-results [role="option"]').first().waitFor({ timeout: 20_000 });
        await context.close();
      });
    }
  }
});
