import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, nextFrames, openPage, useSiteUnderTest } from './client-support.js';

const site = useSiteUnderTest();

async function scrollTo(page: Page, y: number) {
  await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
  await nextFrames(page);
}

const navbarHidden = (page: Page) =>
  page.locator('nav.navbar').evaluate((nav) => nav.classList.contains('navbar-hidden'));

/** Scrolls as a reader does, with the mouse wheel over the page, and waits until the page has moved. */
async function wheel(page: Page, deltaY: number) {
  const before = await page.evaluate(() => window.scrollY);
  await page.mouse.move(640, 450);
  await page.mouse.wheel(0, deltaY);
  await page.waitForFunction((y) => window.scrollY !== y, before);
  await nextFrames(page);
}

/**
 * Resolves once the page has handled the scroll events of a scroll made by the browser or a script
 * (they fire before the next frame) and React has rendered what they set (a task later).
 */
async function settled(page: Page) {
  await nextFrames(page);
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  await nextFrames(page);
}

describe('navbar', () => {
  it('hides while the reader scrolls down and returns when they scroll up (en, zh-cn)', async () => {
    const { context, page, problems } = await openPage(site);
    for (const prefix of ['', 'zh-cn/']) {
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      expect(await navbarHidden(page)).toBe(false);
      await wheel(page, 800);
      await wheel(page, 800);
      await expect.poll(() => navbarHidden(page)).toBe(true);
      // Slid out of view, not merely flagged.
      await expect
        .poll(async () => page.locator('nav.navbar').evaluate((nav) => nav.getBoundingClientRect().bottom))
        .toBeLessThanOrEqual(1);
      await wheel(page, -400);
      await expect.poll(() => navbarHidden(page)).toBe(false);
      // The keyboard is the reader too (its scroll is smooth: it has ended before the next one).
      const scrollEnded = page.evaluate(
        () => new Promise((resolve) => addEventListener('scrollend', resolve, { once: true })),
      );
      await page.keyboard.press('PageDown');
      await scrollEnded;
      await expect.poll(() => navbarHidden(page)).toBe(true);
      await scrollTo(page, 0);
      await expect.poll(() => navbarHidden(page)).toBe(false);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('stays when the browser or a script moves the page, not the reader (en, zh-cn)', async () => {
    const { context, page, problems } = await openPage(site);
    for (const prefix of ['', 'zh-cn/']) {
      // A fresh page: nothing the reader did is recent.
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      // A script restores a place far down, then further down.
      await scrollTo(page, 800);
      await scrollTo(page, 1600);
      await settled(page);
      expect(await navbarHidden(page)).toBe(false);
      // Scroll anchoring: a block grows above what the reader sees, and the browser moves scrollY
      // down by as much to keep the text where it was (as when deferred blocks are laid out).
      const before = await page.evaluate(() => window.scrollY);
      await page.evaluate(() => {
        const spacer = document.createElement('div');
        spacer.style.height = '600px';
        document.querySelector('main h2')!.before(spacer);
      });
      await page.waitForFunction((y) => window.scrollY > y + 500, before);
      await settled(page);
      expect(await navbarHidden(page)).toBe(false);
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('mobile sidebar menu (below 996 px)', () => {
  it('opens from the navbar button and closes on navigation, on back, on Escape and when the window grows (en, zh-cn)', async () => {
    const { context, page, problems } = await openPage(site, { viewport: { width: 800, height: 900 } });
    for (const prefix of ['', 'zh-cn/']) {
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      const menuButton = page.locator('.navbar-menu-toggle');
      const menu = page.locator('#mobile-sidebar');
      expect(await menuButton.isVisible()).toBe(true);
      expect(await page.locator('aside.sidebar').isVisible()).toBe(false);
      expect(await menu.isVisible()).toBe(false);

      // Opens; a link in it navigates and closes it.
      await menuButton.click();
      await menu.waitFor({ state: 'visible' });
      expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
      await menu.locator('a.sidebar-link[href$="/set/"]').click();
      await page.waitForURL(/\/set\/$/);
      await menu.waitFor({ state: 'hidden' });

      // Back closes it.
      await menuButton.click();
      await menu.waitFor({ state: 'visible' });
      await page.goBack();
      await page.waitForURL(/\/dictionary\/$/);
      await menu.waitFor({ state: 'hidden' });

      // Escape closes it.
      await menuButton.click();
      await menu.waitFor({ state: 'visible' });
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'hidden' });
      expect(await menuButton.getAttribute('aria-expanded')).toBe('false');

      // Growing past the breakpoint closes it.
      await menuButton.click();
      await menu.waitFor({ state: 'visible' });
      await page.setViewportSize({ width: 1100, height: 900 });
      await menu.waitFor({ state: 'hidden' });
      expect(await page.locator('aside.sidebar').isVisible()).toBe(true);
      await page.setViewportSize({ width: 800, height: 900 });
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('docs sidebar (desktop)', () => {
  it('can be hidden and shown again; categories start expanded and can be collapsed (en, zh-cn)', async () => {
    const { context, page, problems } = await openPage(site);
    for (const prefix of ['', 'zh-cn/']) {
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      // Links inside a closed category stay in the page (a native disclosure), unseen.
      const sidebarLinks = page.locator('aside.sidebar a.sidebar-link').filter({ visible: true });
      const categories = page.locator('aside.sidebar .sidebar-category > details');
      const isOpen = (details: Locator) => details.evaluate((d: HTMLDetailsElement) => d.open);
      const allLinks = await sidebarLinks.count();
      expect(allLinks).toBeGreaterThanOrEqual(40); // every chapter
      expect(await categories.count()).toBeGreaterThan(5);
      expect(await categories.evaluateAll((all) => all.every((d) => (d as HTMLDetailsElement).open))).toBe(true);

      const toggle = page.locator('aside.sidebar .sidebar-toggle');
      const contentWidth = async () => (await page.locator('main').boundingBox())!.width;
      const widthWithSidebar = await contentWidth();
      const showLabel = await toggle.getAttribute('aria-label');
      await toggle.click();
      await expect.poll(() => sidebarLinks.count()).toBe(0);
      expect(await toggle.getAttribute('aria-label')).not.toBe(showLabel);
      // The sidebar's width is animated (flex-basis, 0.2 s): the content grows over a few frames.
      await expect.poll(contentWidth).toBeGreaterThan(widthWithSidebar);
      await toggle.click();
      await expect.poll(() => sidebarLinks.count()).toBe(allLinks);

      // Collapse the first category: its links go, the others stay.
      const first = categories.first();
      const inFirst = await first.locator('a.sidebar-link').count();
      expect(inFirst).toBeGreaterThan(0);
      await first.locator(':scope > summary').click();
      await expect.poll(() => isOpen(first)).toBe(false);
      await expect.poll(() => sidebarLinks.count()).toBe(allLinks - inFirst);
      await first.locator(':scope > summary').click();
      await expect.poll(() => isOpen(first)).toBe(true);
      await expect.poll(() => sidebarLinks.count()).toBe(allLinks);
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('table of contents', () => {
  it('marks the heading in view as the reader scrolls, and follows a route change (en, zh-cn)', async () => {
    const { context, page, problems } = await openPage(site);
    // The table of contents shown (at 1280 px, the sidebar's; the page's other one is hidden).
    const activeHref = () => page.locator('.toc-link.active:visible').getAttribute('href');
    for (const prefix of ['', 'zh-cn/']) {
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      expect(await page.locator('.toc-link.active:visible').count()).toBe(1);
      const targets = ['#reading-keys-safely', '#merging-dictionaries', '#summary'];
      for (const hash of targets) {
        // Blocks far down are laid out only as they near the viewport, at their real heights, so a
        // first jump can end short of the heading; the reader scrolls on until it is at the top.
        await expect
          .poll(async () => {
            await page.evaluate(
              (id) => document.getElementById(id)!.scrollIntoView({ behavior: 'instant' }),
              hash.slice(1),
            );
            return activeHref();
          })
          .toBe(hash);
      }
      await scrollTo(page, 0);
      await expect.poll(activeHref).toBe('#keys-can-be-any-hashable-value');
      // After a client-side route change the TOC is the new page's.
      await page.locator('.pagination-next').click();
      await page.waitForURL(/\/set\/$/);
      const firstHeading = await page.locator('main .markdown h2').first().getAttribute('id');
      await expect.poll(activeHref).toBe(`#${firstHeading}`);
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});
