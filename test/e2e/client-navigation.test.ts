import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  BASE_PATH,
  PAGE_MODULE,
  expectNextFromDictionaryToLoadInFull,
  gotoHydrated,
  markWindow,
  nextFrames,
  openPage,
  pageModuleSlug,
  recordModuleRequests,
  useSiteUnderTest,
  waitForHydration,
  windowMarkerKept,
} from './client-support.js';

const site = useSiteUnderTest();

const LOCALES = [
  { prefix: '', locale: 'en', setTitle: 'Sets', dictionaryTitle: 'Dictionaries' },
  { prefix: 'zh-cn/', locale: 'zh-cn', setTitle: '集合', dictionaryTitle: '字典' },
] as const;

async function headAndTitle(page: Page) {
  return page.evaluate(() => ({
    title: document.title,
    description: document.querySelector('meta[name="description"]')?.getAttribute('content'),
    h1: document.querySelector('main h1')?.textContent,
  }));
}

/**
 * What the reader sees half-way down the window: the innermost element there, by its text, and
 * where it stands. Back and forward must show the same thing in the same place; the scroll offset
 * itself may differ, as examples off screen are laid out late (content-visibility) and change height.
 */
async function sightAtMiddle(page: Page) {
  return page.evaluate(() => {
    const x = document.querySelector('.markdown')!.getBoundingClientRect().left + 40;
    const element = document.elementFromPoint(x, innerHeight / 2)!;
    return { text: element.textContent.slice(0, 120), top: element.getBoundingClientRect().top };
  });
}

/** Polls until the same text is shown within a pixel (scroll offsets are whole pixels, layout is not) of where it was. */
async function expectSameSight(page: Page, before: Awaited<ReturnType<typeof sightAtMiddle>>) {
  await expect
    .poll(async () => {
      const now = await sightAtMiddle(page);
      return now.text === before.text && Math.abs(now.top - before.top) <= 1 ? 'same' : now;
    })
    .toBe('same');
}

describe('SPA navigation over the History API', () => {
  for (const { prefix, locale, setTitle, dictionaryTitle } of LOCALES) {
    it(`${locale}: a link loads the route module without reload, swaps page, title and description, and back/forward restore scroll`, async () => {
      const { context, page, problems } = await openPage(site);
      const modules = recordModuleRequests(page);
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      await markWindow(page);
      // Scroll to the pagination at the foot of the page and follow "Next".
      const next = page.locator('.pagination-next');
      await next.scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
      // Blocks that scrolled in are laid out in the next frame, and take their real heights.
      await nextFrames(page);
      const leftDictionaryAt = await sightAtMiddle(page);
      await next.click();
      await page.waitForURL(site.url(`${prefix}set/`));
      await page.waitForFunction((title) => document.querySelector('main h1')?.textContent === title, setTitle);
      expect(modules).toContain(`${locale}/set`);
      expect(await windowMarkerKept(page)).toBe(true);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      const afterClick = await headAndTitle(page);

      // Back: the dictionary again, where the reader left it; forward: "set", where the reader left it.
      await page.evaluate(() => window.scrollTo({ top: 1500, behavior: 'instant' }));
      await nextFrames(page);
      const leftSetAt = await sightAtMiddle(page);
      await page.goBack();
      await page.waitForFunction((title) => document.querySelector('main h1')?.textContent === title, dictionaryTitle);
      expect(new URL(page.url()).pathname).toBe(`${BASE_PATH}${prefix}dictionary/`);
      await expectSameSight(page, leftDictionaryAt);
      expect(await windowMarkerKept(page)).toBe(true);
      await page.goForward();
      await page.waitForFunction((title) => document.querySelector('main h1')?.textContent === title, setTitle);
      await expectSameSight(page, leftSetAt);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
      expect(await windowMarkerKept(page)).toBe(true);

      // The swapped head matches what a full load of that page shows; the reload stays where the reader was.
      await page.reload();
      await waitForHydration(page);
      expect(afterClick).toEqual(await headAndTitle(page));
      await expectSameSight(page, leftSetAt);
      expect(afterClick.title).toContain(' | ');
      expect(problems).toEqual([]);
      await context.close();
    });

    it(`${locale}: a link with #anchor scrolls to that heading on the new page`, async () => {
      const { context, page, problems } = await openPage(site);
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      await markWindow(page);
      const link = page
        .locator(
          `main .markdown a[href="${BASE_PATH}${prefix}definition-and-invocation-of-functions/#the-mutable-default-argument-trap"]`,
        )
        .first();
      await link.click();
      await page.waitForURL(/#the-mutable-default-argument-trap$/);
      await page.waitForSelector('#the-mutable-default-argument-trap');
      await nextFrames(page);
      const top = await page.evaluate(
        () => document.getElementById('the-mutable-default-argument-trap')!.getBoundingClientRect().top,
      );
      expect(Math.abs(top)).toBeLessThan(120);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
      expect(await windowMarkerKept(page)).toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('an in-page #anchor link scrolls within the page; back returns to where the reader was, forward to the anchor', async () => {
    const { context, page, problems } = await openPage(site, { reducedMotion: 'reduce' });
    await gotoHydrated(page, site.url('dictionary/'));
    await markWindow(page);
    await page.evaluate(() => window.scrollTo({ top: 400, behavior: 'instant' }));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(400);
    // A DOM click: Playwright's own click may scroll first to make the link "actionable", which
    // would change the very position this test is about.
    await page.evaluate(() =>
      document.querySelector<HTMLAnchorElement>('.toc-link[href="#merging-dictionaries"]')!.click(),
    );
    await page.waitForURL(/#merging-dictionaries$/);
    const anchorY = await page.evaluate(() => window.scrollY);
    expect(anchorY).toBeGreaterThan(1000);
    await page.goBack();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(400);
    await page.goForward();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(anchorY);
    expect(await windowMarkerKept(page)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a route module without a default export is an error: the navigation falls back to a full load with a warning', async () => {
    const { context, page, problems } = await openPage(site);
    await page.route(PAGE_MODULE, async (route) => {
      if (pageModuleSlug(route.request()) === 'en/set')
        await route.fulfill({ contentType: 'text/javascript', body: 'export const page = {};' });
      else await route.continue();
    });
    await expectNextFromDictionaryToLoadInFull(site, page);
    expect(problems.some((p) => p.startsWith('warning:') && p.includes('has no default export'))).toBe(true);
    await context.close();
  });
});

describe('language dropdown', () => {
  for (const [from, to, label] of [
    ['', 'zh-cn/', '简体中文'],
    ['zh-cn/', '', 'English'],
  ] as const) {
    it(`keeps the chapter and the heading (${from || 'en/'} -> ${to || 'en/'})`, async () => {
      const { context, page, problems } = await openPage(site);
      await gotoHydrated(page, site.url(`${from}dictionary/#merging-dictionaries`));
      // The navbar hides once the page has scrolled: a little scroll up brings it back, as a reader does.
      await page.mouse.move(800, 450);
      await expect
        .poll(async () => {
          if (!(await page.locator('.navbar-hidden').count())) return true;
          await page.mouse.wheel(0, -20);
          return false;
        })
        .toBe(true);
      await page.waitForFunction(() => getComputedStyle(document.querySelector('.navbar')!).transform === 'none');
      // With the mouse, where the menu is: a locator's click would scroll it into view first, and
      // the navbar is sticky, so the page would move (test/e2e/table-of-contents.test.ts has more).
      for (const target of [
        page.locator('.language-dropdown summary'),
        page.locator('.language-dropdown a', { hasText: label }),
      ]) {
        await target.waitFor();
        const box = (await target.boundingBox())!;
        await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      }
      // The place goes along, not the #heading (src/client/router.ts).
      await page.waitForURL(site.url(`${to}dictionary/`));
      await waitForHydration(page);
      await expect
        .poll(() => page.evaluate(() => document.getElementById('merging-dictionaries')!.getBoundingClientRect().top), {
          timeout: 5000,
        })
        .toBeLessThan(120);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('follows client-side navigation: after moving to another chapter it points at that chapter', async () => {
    const { context, page } = await openPage(site);
    await gotoHydrated(page, site.url('dictionary/'));
    await page.locator('.pagination-next').click();
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Sets');
    await page.locator('.language-dropdown summary').click();
    await page.locator('.language-dropdown a', { hasText: '简体中文' }).click();
    await page.waitForURL(site.url('zh-cn/set/'));
    await context.close();
  });
});
