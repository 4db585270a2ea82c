import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, openPage, siteDataOf, useSiteUnderTest, waitForHydration } from './client-support.js';

const site = useSiteUnderTest();

const theme = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);
const storedTheme = (page: Page) => page.evaluate(() => localStorage.getItem('theme'));

/** Records data-theme as the parser reaches <body>, at DOMContentLoaded and at the first frame: before first paint. */
const RECORD_EARLY_THEME = `
window.__early = {};
new MutationObserver((_, observer) => {
  if (!document.body) return;
  window.__early.body = document.documentElement.dataset.theme;
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });
document.addEventListener('DOMContentLoaded', () => { window.__early.domContentLoaded = document.documentElement.dataset.theme; });
requestAnimationFrame(() => { window.__early.firstFrame = document.documentElement.dataset.theme; });`;

const earlyTheme = (page: Page) =>
  page.evaluate(() => (window as Window & { __early?: Record<string, string> }).__early);

describe('colour mode', () => {
  it('is light by default and nothing is stored', async () => {
    const { context, page, problems } = await openPage(site);
    await gotoHydrated(page, site.url('dictionary/'));
    expect(await theme(page)).toBe('light');
    expect(await storedTheme(page)).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('follows the system preference while nothing is stored, live too', async () => {
    const { context, page } = await openPage(site, { colorScheme: 'dark' });
    await page.addInitScript(RECORD_EARLY_THEME);
    await gotoHydrated(page, site.url(''));
    expect(await theme(page)).toBe('dark');
    expect(await earlyTheme(page)).toEqual({ body: 'dark', domContentLoaded: 'dark', firstFrame: 'dark' });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await context.close();
  });

  for (const prefix of ['', 'zh-cn/']) {
    it(`the toggle stores the choice under "theme"; it survives reload with no flash of the wrong theme (${prefix || 'en/'})`, async () => {
      const { context, page, problems } = await openPage(site);
      await page.addInitScript(RECORD_EARLY_THEME);
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      const toggle = page.locator('.navbar .color-mode-toggle');
      const lightLabel = await toggle.getAttribute('aria-label');
      await toggle.click();
      expect(await theme(page)).toBe('dark');
      expect(await storedTheme(page)).toBe('dark');
      expect(await toggle.getAttribute('aria-label')).not.toBe(lightLabel);

      await page.reload();
      await waitForHydration(page);
      expect(await theme(page)).toBe('dark');
      expect(await earlyTheme(page)).toEqual({ body: 'dark', domContentLoaded: 'dark', firstFrame: 'dark' });
      // The stored choice beats the system preference.
      await page.emulateMedia({ colorScheme: 'light' });
      await page.waitForTimeout(100);
      expect(await theme(page)).toBe('dark');

      await toggle.click();
      expect(await theme(page)).toBe('light');
      expect(await storedTheme(page)).toBe('light');
      expect(await toggle.getAttribute('aria-label')).toBe(lightLabel);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('a stored light choice wins over a dark system preference from the first paint', async () => {
    const { context, page } = await openPage(site, { colorScheme: 'dark' });
    await page.addInitScript(RECORD_EARLY_THEME);
    await page.addInitScript(
      "if (!localStorage.getItem('seeded')) { localStorage.setItem('theme', 'light'); localStorage.setItem('seeded', '1'); }",
    );
    await gotoHydrated(page, site.url('search/'));
    expect(await earlyTheme(page)).toEqual({ body: 'light', domContentLoaded: 'light', firstFrame: 'light' });
    await context.close();
  });

  it('is synced across two tabs', async () => {
    const { context, page } = await openPage(site);
    const other = await context.newPage();
    await gotoHydrated(page, site.url('dictionary/'));
    await gotoHydrated(other, site.url('zh-cn/set/'));
    await page.locator('.navbar .color-mode-toggle').click();
    await other.waitForFunction(() => document.documentElement.dataset.theme === 'dark', undefined, { timeout: 3000 });
    // The other tab's toggle follows too (its label offers light mode now).
    await expect
      .poll(() => other.locator('.navbar .color-mode-toggle').getAttribute('aria-label'))
      .toBe((await siteDataOf(other)).strings.colorModeToLight);
    await other.locator('.navbar .color-mode-toggle').click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light', undefined, { timeout: 3000 });
    await context.close();
  });
});

describe('announcement bar', () => {
  for (const prefix of ['', 'zh-cn/']) {
    it(`closes and stays closed for that id after reload; a new id shows again (${prefix || 'en/'})`, async () => {
      const { context, page, problems } = await openPage(site);
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      const bar = page.locator('.announcement-bar');
      expect(await bar.isVisible()).toBe(true);
      const id = await bar.getAttribute('data-announcement-id');
      expect(id).toBeTruthy();
      await page.locator('.announcement-close').click();
      expect(await bar.isVisible()).toBe(false);
      expect(await page.evaluate(() => localStorage.getItem('pybook-announcement-dismiss'))).toBe(id);

      await page.reload();
      await waitForHydration(page);
      expect(await bar.isVisible()).toBe(false);
      // Also after a client-side navigation.
      await page.locator('.pagination-next').click();
      await page.waitForURL(/\/set\/$/);
      expect(await bar.isVisible()).toBe(false);

      // The reader closed an older announcement: the current one shows.
      await page.evaluate(() => localStorage.setItem('pybook-announcement-dismiss', 'an-older-announcement'));
      await page.reload();
      await waitForHydration(page);
      expect(await bar.isVisible()).toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
