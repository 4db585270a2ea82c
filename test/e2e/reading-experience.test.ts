import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { comparisonBlocks } from '../../bench/comparisons.js';
import { gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';

const site = useSiteUnderTest();

/** Chapters with many and wide comparisons. */
const CHAPTERS = [
  'dictionary/',
  'create-and-import-packages/',
  'lists-and-tuples/',
  'json-module/',
  'async-and-await/',
];
const WIDTHS = [1440, 1280, 1000, 390];

/** Comparison blocks cut off at the current width, leaving out lines over 90 columns (the style guide forbids them). */
async function clippedComparisonBlocks(page: Page): Promise<{ total: number; clipped: string[] }> {
  const blocks = await comparisonBlocks(page);
  return { total: blocks.length, clipped: blocks.filter((b) => b.clipped && !b.overlong).map((b) => b.text) };
}

describe('comparisons never hide code', () => {
  for (const width of WIDTHS) {
    it(`no comparison block is clipped at ${width} px (en, zh-cn)`, async () => {
      const { context, page } = await openPage(site, { viewport: { width, height: 900 } });
      let total = 0;
      for (const prefix of ['', 'zh-cn/']) {
        for (const chapter of CHAPTERS) {
          await page.goto(site.url(prefix + chapter));
          const result = await clippedComparisonBlocks(page);
          total += result.total;
          expect(result.clipped, `${prefix}${chapter} at ${width} px`).toEqual([]);
        }
      }
      expect(total).toBeGreaterThan(100);
      await context.close();
    });
  }

  it('puts short comparisons side by side and long ones JavaScript above Python, decided before any script runs', async () => {
    const { context, page } = await openPage(site, {
      viewport: { width: 1440, height: 900 },
      javaScriptEnabled: false,
    });
    // Chapters with short comparisons and long ones (the book's content decides which are which).
    const layouts: { sideBySide: boolean; stacked: boolean }[] = [];
    for (const chapter of ['hello-world/', 'arithmetic-operation/', 'anonymous-functions/', 'dictionary/']) {
      await page.goto(site.url(chapter));
      layouts.push(
        ...(await page.$$eval('.compare', (compares) =>
          compares.map((compare) => {
            const [js, py] = [...compare.querySelectorAll('.compare-column')].map((c) => c.getBoundingClientRect());
            return { sideBySide: Math.abs(js.top - py.top) < 1 && py.left > js.right, stacked: py.top >= js.bottom };
          }),
        )),
      );
    }
    expect(layouts.some((l) => l.sideBySide)).toBe(true);
    expect(layouts.some((l) => l.stacked)).toBe(true);
    for (const layout of layouts) expect(layout.sideBySide || layout.stacked).toBe(true);
    await context.close();
  });

  it('code reads at 14 px, and on touch screens the copy and wrap buttons sit above the code, not on it', async () => {
    const { context, page } = await openPage(site, {
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    await page.goto(site.url('dictionary/'));
    expect(
      await page
        .locator('.code-pre')
        .first()
        .evaluate((pre) => getComputedStyle(pre).fontSize),
    ).toBe('14px');
    const overlaps = await page.$$eval(
      '.code-block',
      (blocks) =>
        blocks.filter((block) => {
          const buttons = block.querySelector('.code-buttons')?.getBoundingClientRect();
          const line = block.querySelector('.code-line')?.getBoundingClientRect();
          return (
            buttons &&
            line &&
            buttons.bottom > line.top &&
            buttons.top < line.bottom &&
            buttons.right > line.left &&
            buttons.left < line.right
          );
        }).length,
    );
    expect(overlaps).toBe(0);
    await context.close();
  });
});

describe('small and mid-size screens', () => {
  it('at 390 px the search results stay inside the screen', async () => {
    const { context, page } = await openPage(site, { viewport: { width: 390, height: 844 } });
    for (const prefix of ['', 'zh-cn/']) {
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      await page.locator('#navbar-search-input').fill(prefix ? '字典' : 'dictionary');
      const dropdown = page.locator('.search-dropdown');
      await dropdown.locator('[role="option"]').first().waitFor({ timeout: 20_000 });
      const box = (await dropdown.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await context.close();
  });

  it('shows the right-hand table of contents from 1720 px (comparisons need the width below), in the sidebar from 1280 px, and a collapsible "On this page" below', async () => {
    const { context, page } = await openPage(site, { viewport: { width: 1720, height: 800 } });
    await gotoHydrated(page, site.url('dictionary/'));
    expect(await page.locator('.main-toc .toc').isVisible()).toBe(true);
    expect(await page.locator('.sidebar-toc').isVisible()).toBe(false);
    expect(await page.locator('.toc-collapsible').isVisible()).toBe(false);
    await page.setViewportSize({ width: 1440, height: 800 });
    expect(await page.locator('.main-toc').isVisible()).toBe(false);
    expect(await page.locator('.sidebar-toc').isVisible()).toBe(true);
    expect(await page.locator('.toc-collapsible').isVisible()).toBe(false);
    await page.setViewportSize({ width: 1200, height: 800 });
    expect(await page.locator('.sidebar-toc').isVisible()).toBe(false);
    const collapsible = page.locator('.toc-collapsible');
    expect(await collapsible.isVisible()).toBe(true);
    expect(await collapsible.locator('a').first().isVisible()).toBe(false);
    await collapsible.locator('summary').click();
    await collapsible.locator('a[href="#insertion-order"]').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#insertion-order');
    await gotoHydrated(page, site.url('zh-cn/dictionary/'));
    expect(await page.locator('.toc-collapsible summary').textContent()).toBe('本页内容');
    await context.close();
  });
});

describe('orientation and keyboard', () => {
  it('"/" focuses the search box, except while typing in a field', async () => {
    const { context, page } = await openPage(site);
    await gotoHydrated(page, site.url('dictionary/'));
    await page.locator('main h1').click();
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('navbar-search-input');
    // Typed into the search box itself, "/" is a character.
    await page.keyboard.type('a/b');
    expect(await page.locator('#navbar-search-input').inputValue()).toBe('a/b');
    await context.close();
  });

  it('heading links are announced as "Direct link to …" in English and Chinese', async () => {
    const { context, page } = await openPage(site);
    await page.goto(site.url('dictionary/'));
    expect(await page.locator('h2#insertion-order .hash-link').getAttribute('aria-label')).toBe(
      'Direct link to Insertion order',
    );
    await page.goto(site.url('zh-cn/dictionary/'));
    const zh = await page.locator('h2#insertion-order').evaluate((h) => ({
      text: h.firstChild?.textContent,
      label: h.querySelector('.hash-link')?.getAttribute('aria-label'),
    }));
    expect(zh.label).toBe(`${zh.text}的直接链接`);
    await context.close();
  });

  it('the 404 page leads to the home page and to search, in both languages', async () => {
    const { context, page } = await openPage(site);
    for (const [prefix, home, search] of [
      ['', 'Go to the home page', 'Search the book'],
      ['zh-cn/', '返回首页', '搜索本书'],
    ]) {
      await page.goto(site.url(`${prefix}no-such-chapter/`));
      expect(await page.locator('.not-found a', { hasText: home }).getAttribute('href')).toBe(
        `/python-guide-for-javascript-engineers/${prefix}`,
      );
      await page.locator('.not-found a', { hasText: search }).click();
      await page.waitForURL(new RegExp(`/python-guide-for-javascript-engineers/${prefix}search/$`));
      await page.locator('.search-page input[type="search"]').waitFor();
    }
    await context.close();
  });

  it('every table header cell has text (axe: empty-table-header)', async () => {
    const { context, page } = await openPage(site);
    for (const prefix of ['', 'zh-cn/']) {
      await page.goto(site.url(`${prefix}hello-world/`));
      const empty = await page.$$eval('.markdown th', (cells) => cells.filter((th) => !th.textContent?.trim()).length);
      expect(empty).toBe(0);
    }
    await context.close();
  });
});

describe('the phone menu', () => {
  it('is a real modal: focus moves in and stays, Escape returns it to the menu button, the page behind does not scroll', async () => {
    const { context, page } = await openPage(site, { viewport: { width: 390, height: 844 } });
    for (const prefix of ['', 'zh-cn/']) {
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      await page.locator('.navbar-menu-toggle').click();
      const dialog = page.locator('#mobile-sidebar[role="dialog"]');
      await dialog.waitFor();
      expect(await page.evaluate(() => document.activeElement?.closest('#mobile-sidebar') !== null)).toBe(true);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-current'))).toBe('page');
      expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
      for (let i = 0; i < 60; i++) await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('#mobile-sidebar') !== null)).toBe(true);
      await page.keyboard.press('Shift+Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('#mobile-sidebar') !== null)).toBe(true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.classList.contains('navbar-menu-toggle'))).toBe(true);
      expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');
    }
    await context.close();
  });

  it('its links navigate on the client, without a page load', async () => {
    const { context, page } = await openPage(site, { viewport: { width: 390, height: 844 } });
    await gotoHydrated(page, site.url('dictionary/'));
    await page.evaluate(() => {
      (window as Window & { __sameDocument?: boolean }).__sameDocument = true;
    });
    await page.locator('.navbar-menu-toggle').click();
    await page.locator('#mobile-sidebar a[href$="/set/"]').click();
    await page.waitForURL(/\/set\/$/);
    await page.locator('main h1', { hasText: 'Sets' }).waitFor();
    expect(await page.evaluate(() => (window as Window & { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(await page.locator('#mobile-sidebar').count()).toBe(0);
    await context.close();
  });
});

describe('client navigation', () => {
  it("moves focus to the new page's title (not an empty element) and announces it", async () => {
    const { context, page } = await openPage(site);
    for (const [prefix, next] of [
      ['', 'Sets'],
      ['zh-cn/', '集合'],
    ]) {
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      await page.locator('.pagination-next').focus();
      await page.keyboard.press('Enter');
      await page.locator('main h1', { hasText: next }).waitFor();
      expect(await page.evaluate(() => [document.activeElement?.tagName, document.activeElement?.textContent])).toEqual(
        ['H1', next],
      );
      expect(await page.locator('#route-announcer').textContent()).toBe(await page.title());
      // Tab goes on into the page, not back to the navbar.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('#main-content'))).toBe(true);
    }
    await context.close();
  });
});

describe('without JavaScript', () => {
  it('shows every tab under its label, says search needs JavaScript, offers no dead controls, and lists the chapters on phones', async () => {
    const { context, page } = await openPage(site, { javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    for (const [prefix, needs] of [
      ['', 'needs JavaScript'],
      ['zh-cn/', '需要 JavaScript'],
    ]) {
      await page.goto(site.url(`${prefix}setup-environment/`));
      const panels = page.locator('.tabs-panel');
      const count = await panels.count();
      expect(count).toBeGreaterThanOrEqual(3);
      for (let i = 0; i < count; i++) expect(await panels.nth(i).isVisible()).toBe(true);
      expect(await page.locator('.tabs-list').isVisible()).toBe(false);
      for (const control of ['.code-buttons', '.color-mode-toggle', '.navbar-menu-toggle']) {
        expect(await page.locator(control).first().isVisible(), control).toBe(false);
      }
      // The chapter list, after the page.
      const sidebarLink = page.locator('.sidebar a[href$="/dictionary/"]');
      expect(await sidebarLink.isVisible()).toBe(true);
      const [main, sidebar] = await Promise.all([
        page.locator('main').boundingBox(),
        page.locator('.sidebar').boundingBox(),
      ]);
      expect(sidebar!.y).toBeGreaterThan(main!.y);
      await page.goto(site.url(`${prefix}search/?q=dict`));
      expect(await page.locator('main').innerText()).toContain(needs);
    }
    await context.close();
  });
});

describe('tabs', () => {
  it('with the same group switch together and are remembered on the next page', async () => {
    const { context, page } = await openPage(site);
    await gotoHydrated(page, site.url('zh-cn/setup-environment/'));
    await page.locator('.tabs[data-group="os"] [role="tab"][data-tab="windows"]').first().click();
    const selected = () =>
      page
        .locator('.tabs[data-group="os"]')
        .evaluateAll((sets) => sets.map((s) => s.querySelector('[aria-selected="true"]')?.getAttribute('data-tab')));
    // The click loads the content behaviour chunk first: wait for the switch, do not read at once.
    await expect.poll(async () => new Set(await selected())).toEqual(new Set(['windows']));
    await expect
      .poll(() =>
        page.locator('.tabs[data-group="os"] [role="tabpanel"][data-tab-panel="windows"]').first().isVisible(),
      )
      .toBe(true);
    // Another page of the group, opened by the client router, starts on Windows too; and after a reload.
    await page.evaluate(() => document.querySelector<HTMLAnchorElement>('.sidebar-nav a[href$="/uv/"]')!.click());
    await page.waitForURL(/\/uv\/$/);
    await expect.poll(async () => new Set(await selected())).toEqual(new Set(['windows']));
    await page.reload();
    await expect.poll(async () => new Set(await selected())).toEqual(new Set(['windows']));
    await context.close();
  });
});

describe('the sidebar', () => {
  it('shows the current chapter on load, and stays hidden across pages and reloads once hidden', async () => {
    const { context, page } = await openPage(site, { viewport: { width: 1440, height: 900 } });
    for (const prefix of ['', 'zh-cn/']) {
      await gotoHydrated(page, site.url(`${prefix}afterword/`));
      const inView = await page.evaluate(() => {
        const nav = document.querySelector('.sidebar-nav')!.getBoundingClientRect();
        const link = document.querySelector('.sidebar-nav a[aria-current="page"]')!.getBoundingClientRect();
        return link.top >= nav.top && link.bottom <= nav.bottom;
      });
      expect(inView).toBe(true);
    }
    await page.locator('.sidebar-toggle').click();
    await expect.poll(() => page.locator('.sidebar-nav').count()).toBe(0);
    await page.evaluate(() => document.querySelector<HTMLAnchorElement>('.pagination-previous')!.click());
    await page.waitForURL(/references\/$/);
    expect(await page.locator('.sidebar.sidebar-hidden').count()).toBe(1);
    await page.reload();
    // Hidden from the first paint (no flash), and after hydration.
    // One look at the page: whether every nav is hidden, and what the page had, for the failure message.
    const firstPaint = await page.evaluate(() => {
      const displays = Array.from(document.querySelectorAll('.sidebar-nav'), (n) => getComputedStyle(n).display);
      return {
        hidden: displays.every((d) => d === 'none'),
        state: `data-sidebar=${document.documentElement.dataset.sidebar}, stored=${localStorage.getItem('pybook-sidebar')}, url=${location.pathname}, navs=${displays.join('/')}`,
      };
    });
    expect(firstPaint.hidden, firstPaint.state).toBe(true);
    await expect.poll(() => page.locator('.sidebar.sidebar-hidden').count()).toBe(1);
    await page.locator('.sidebar-toggle').click();
    await expect.poll(() => page.locator('.sidebar-nav').isVisible()).toBe(true);
    await context.close();
  });
});

describe('the home page', () => {
  it('presents the parts and chapters, the three projects and a comparison, in both languages', async () => {
    const { context, page } = await openPage(site, { viewport: { width: 1440, height: 900 } });
    for (const prefix of ['', 'zh-cn/']) {
      await gotoHydrated(page, site.url(prefix));
      const chapters = await page.locator('.home-part li a').count();
      expect(chapters).toBe(48); // Book 1.3
      expect(await page.locator('.home-projects li').count()).toBe(3);
      expect(await page.locator('.home-example .compare .code-block').count()).toBe(2);
      // Every chapter has its one-line description.
      expect(await page.locator('.home-part li .home-chapter-description').count()).toBe(48);
    }
    // The Chinese title breaks between words, never inside "JavaScript".
    await page.setViewportSize({ width: 390, height: 844 });
    await gotoHydrated(page, site.url('zh-cn/'));
    const lines = await page.locator('.home-title').evaluate((title) => {
      const text = title.firstChild!;
      const at = text.textContent!.indexOf('JavaScript');
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + 'JavaScript'.length);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    expect(lines).toBe(1);
    expect(await page.locator('.home-cover').getAttribute('src')).toMatch(/cover-zh-cn\.svg$/);
    await context.close();
  });
});
