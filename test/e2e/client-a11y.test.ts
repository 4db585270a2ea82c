import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe-support.js';
import { gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';

const site = useSiteUnderTest();

interface FocusStop {
  id: string;
  className: string;
  tag: string;
  visibleFocus: boolean;
  inViewport: boolean;
}

/** Presses Tab and describes the element that receives focus, with whether its focus is visible. */
async function tab(page: Page): Promise<FocusStop> {
  await page.keyboard.press('Tab');
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow !== 'none';
    const rect = el.getBoundingClientRect();
    return {
      id: el.id,
      className: typeof el.className === 'string' ? el.className : '',
      tag: el.tagName.toLowerCase(),
      visibleFocus: el.matches(':focus-visible') && (outline || ring),
      inViewport: rect.width > 0 && rect.height > 0 && rect.bottom > 0 && rect.top < innerHeight,
    };
  });
}

describe('keyboard', () => {
  for (const prefix of ['', 'zh-cn/']) {
    it(`the skip link comes first and moves focus to main; Tab reaches search, colour toggle and sidebar links with visible focus (${prefix || 'en/'})`, async () => {
      const { context, page, problems } = await openPage(site);
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      const skip = await tab(page);
      expect(skip.className).toContain('skip-to-content');
      expect(skip.visibleFocus && skip.inViewport).toBe(true);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.id === 'main-content');

      // From the top again: the navbar controls, then the sidebar.
      await page.evaluate(() => (document.activeElement as HTMLElement).blur());
      await page.reload();
      await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
      const stops: FocusStop[] = [];
      // At 1280 px the chapter's "On this page" links come before the chapter list in the sidebar.
      for (let i = 0; i < 40; i++) {
        const stop = await tab(page);
        stops.push(stop);
        if (stop.className.includes('sidebar-link')) break;
      }
      const index = (test: (s: FocusStop) => boolean) => stops.findIndex(test);
      const search = index((s) => s.id === 'navbar-search-input');
      const toggle = index((s) => s.className.includes('color-mode-toggle'));
      const sidebarLink = index((s) => s.className.includes('sidebar-link'));
      expect(stops[0].className).toContain('skip-to-content');
      expect(search).toBeGreaterThan(0);
      expect(toggle).toBeGreaterThan(search);
      expect(sidebarLink).toBeGreaterThan(toggle);
      const unseen = stops.filter((s) => !s.visibleFocus || !s.inViewport);
      expect(unseen, 'focus stops without a visible focus indicator').toEqual([]);

      // The colour toggle works from the keyboard.
      await page.focus('.navbar .color-mode-toggle');
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});

describe('axe-core', () => {
  for (const prefix of ['', 'zh-cn/']) {
    for (const mode of ['light', 'dark'] as const) {
      it(`chapter, landing and search pages have no violations in ${mode} mode (${prefix || 'en/'})`, async () => {
        // bypassCSP: axe-core is injected as an inline script, which the page's own policy rightly refuses.
        const { context, page } = await openPage(site, { colorScheme: mode, reducedMotion: 'reduce', bypassCSP: true });
        const found: string[] = [];
        for (const path of ['dictionary/', 'hello-world/', '', 'search/?q=dict', 'no-such-page/']) {
          if (path === 'no-such-page/') await page.goto(site.url(prefix + path));
          else await gotoHydrated(page, site.url(prefix + path));
          expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(mode);
          found.push(...(await axeViolations(page)).map((v) => `${prefix}${path}: ${v}`));
        }
        // And with the search results open.
        await gotoHydrated(page, site.url(`${prefix}dictionary/`));
        await page.locator('#navbar-search-input').fill(prefix ? '字典' : 'dict');
        await page.locator('.search-dropdown [role="option"]').first().waitFor({ timeout: 20_000 });
        found.push(...(await axeViolations(page)).map((v) => `${prefix}dictionary/ with search open: ${v}`));
        expect(found).toEqual([]);
        await context.close();
      });
    }
  }

  // Lighthouse's own emulation of a phone (Moto G Power), and a laptop. Axe hit-tests code that
  // scrolls sideways far below the fold before the browser has laid it out (content-visibility):
  // what it finds behind the code's light text must be the example's dark frame, not the page.
  it('chapters with long-lined examples far below the fold pass color-contrast, on a phone and a laptop (en, zh-cn)', async () => {
    const found: string[] = [];
    const screens = [
      { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true },
      { viewport: { width: 1440, height: 900 } },
    ];
    for (const screen of screens) {
      const { context, page } = await openPage(site, { ...screen, bypassCSP: true });
      for (const prefix of ['', 'zh-cn/']) {
        for (const path of ['hello-world/', 'async-and-await/']) {
          await gotoHydrated(page, site.url(prefix + path));
          found.push(...(await axeViolations(page)).map((v) => `${screen.viewport.width} px ${prefix}${path}: ${v}`));
        }
      }
      await context.close();
    }
    expect(found).toEqual([]);
  });
});
