import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, nextFrames, openPage, useSiteUnderTest, waitForHydration } from './client-support.js';

const site = useSiteUnderTest();

/** Each test opens several pages on a machine shared with other builds. */
const SLOW = 180_000;

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** Where each table of contents of the page is, null when it is not displayed; and the chapter's content. */
function layout(page: Page) {
  return page.evaluate(() => {
    const box = (selector: string) => {
      const element = document.querySelector(selector);
      if (!element || getComputedStyle(element).display === 'none') return null;
      const { top, bottom, left, right } = element.getBoundingClientRect();
      return right > left ? { top, bottom, left, right } : null;
    };
    return {
      sidebar: box('.sidebar-toc'),
      column: box('.main-toc .toc'),
      folded: box('.toc-collapsible'),
      content: box('.markdown')!,
    };
  });
}

/** The highlighted link of the table of contents shown, where it is, and where the list shows it. */
function highlighted(page: Page) {
  return page.evaluate(() => {
    const shown = [...document.querySelectorAll<HTMLElement>('.toc')].filter((toc) => toc.offsetParent !== null);
    const links = shown.flatMap((toc) => [...toc.querySelectorAll('.toc-link.active')]);
    const link = links[0];
    const box = (element: Element) => {
      const { top, bottom, left, right } = element.getBoundingClientRect();
      return { top, bottom, left, right };
    };
    return {
      count: links.length,
      href: link?.getAttribute('href'),
      link: link && box(link),
      list: link && box(link.closest('.toc')!),
    };
  });
}

const inside = (inner: Box, outer: Box) =>
  inner.top >= outer.top - 1 && inner.bottom <= outer.bottom + 1 && inner.left >= outer.left - 1;

/** Scrolls so that the heading is at the top, as a reader who follows its link; retried while blocks above are laid out. */
async function scrollToHeading(page: Page, id: string) {
  await page.evaluate((heading) => document.getElementById(heading)!.scrollIntoView({ behavior: 'instant' }), id);
  await nextFrames(page);
}

describe('table of contents beside the chapter', () => {
  for (const width of [1280, 1440]) {
    it(
      `at ${width} px: at the top of the sidebar, beside the chapter, the section in view highlighted as the reader scrolls (en, zh-cn)`,
      async () => {
        const { context, page, problems } = await openPage(site, {
          viewport: { width, height: 900 },
          reducedMotion: 'reduce',
        });
        context.setDefaultTimeout(30_000);
        for (const prefix of ['', 'zh-cn/']) {
          await gotoHydrated(page, site.url(`${prefix}dictionary/`));
          const { sidebar, column, folded, content } = await layout(page);
          expect(sidebar, 'the table of contents in the sidebar').not.toBeNull();
          expect(column).toBeNull();
          expect(folded).toBeNull();
          // Beside the chapter, not over it, and in view from the first screen.
          expect(sidebar!.right).toBeLessThanOrEqual(content.left);
          expect(sidebar!.top).toBeGreaterThanOrEqual(0);
          expect(sidebar!.top).toBeLessThan(200);
          expect(await page.locator('.sidebar-toc .toc-title').isVisible()).toBe(true);
          expect((await highlighted(page)).href).toBe(
            `#${await page.locator('.markdown h2[id]').first().getAttribute('id')}`,
          );

          const ids = await page.locator('.markdown h2[id]').evaluateAll((hs) => hs.map((h) => h.id));
          for (const id of [ids[1], ids[Math.floor(ids.length / 2)], ids[ids.length - 2]]) {
            // Blocks further down are laid out only as they near the viewport: the reader scrolls on
            // until the heading is at the top.
            await expect
              .poll(async () => {
                await scrollToHeading(page, id);
                return (await highlighted(page)).href;
              })
              .toBe(`#${id}`);
            const mark = await highlighted(page);
            expect(mark.count).toBe(1);
            // The highlighted section is in sight: in the list's visible part, and on the screen.
            expect(inside(mark.link, mark.list), `#${id} in sight in the list`).toBe(true);
            expect(mark.link.bottom).toBeLessThanOrEqual(900);
            expect(mark.link.right).toBeLessThanOrEqual(content.left);
          }
        }
        expect(problems).toEqual([]);
        await context.close();
      },
      SLOW,
    );
  }

  it(
    'a list longer than its place scrolls by itself to keep the highlighted section in sight (1366 × 768)',
    async () => {
      const { context, page } = await openPage(site, {
        viewport: { width: 1366, height: 768 },
        reducedMotion: 'reduce',
      });
      context.setDefaultTimeout(30_000);
      await gotoHydrated(page, site.url('re-module/'));
      const list = page.locator('.sidebar-toc');
      expect(await list.evaluate((toc) => toc.scrollHeight > toc.clientHeight + 20)).toBe(true);
      const ids = await page.locator('.markdown :is(h2, h3)[id]').evaluateAll((hs) => hs.map((h) => h.id));
      for (const id of [ids[ids.length - 1], ids[0]]) {
        await expect
          .poll(async () => {
            await scrollToHeading(page, id);
            const mark = await highlighted(page);
            return mark.href === `#${id}` && inside(mark.link, mark.list);
          })
          .toBe(true);
      }
      await context.close();
    },
    SLOW,
  );

  it(
    'with the sidebar hidden it takes a column of its own right of the chapter, comparisons still side by side (1280 px)',
    async () => {
      const { context, page } = await openPage(site, {
        viewport: { width: 1280, height: 900 },
        reducedMotion: 'reduce',
      });
      await gotoHydrated(page, site.url('dictionary/'));
      await page.locator('.sidebar-toggle').click();
      await expect.poll(async () => (await layout(page)).column).not.toBeNull();
      // From the first paint on the next page (the head script marks the choice before it).
      await gotoHydrated(page, site.url('set/'));
      const { sidebar, column, folded, content } = await layout(page);
      expect(sidebar).toBeNull();
      expect(folded).toBeNull();
      expect(column!.left).toBeGreaterThanOrEqual(content.right);
      const columns = await page
        .locator('.markdown > .compare')
        .first()
        .locator('.compare-column')
        .evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect().top));
      expect(columns[0]).toBe(columns[1]);
      await context.close();
    },
    SLOW,
  );

  it(
    'below 1280 px and on phones it is the folded "On this page" above the chapter (en, zh-cn)',
    async () => {
      for (const width of [1000, 390]) {
        const { context, page } = await openPage(site, { viewport: { width, height: 844 } });
        for (const [prefix, title] of [
          ['', 'On this page'],
          ['zh-cn/', '本页内容'],
        ] as const) {
          await gotoHydrated(page, site.url(`${prefix}dictionary/`));
          const { sidebar, column, folded, content } = await layout(page);
          expect(sidebar, `${width} px`).toBeNull();
          expect(column).toBeNull();
          expect(folded!.bottom).toBeLessThanOrEqual(content.top);
          expect(await page.locator('.toc-collapsible > summary').textContent()).toBe(title);
          expect(await page.locator('.toc-collapsible a').first().isVisible()).toBe(false);
        }
        await context.close();
      }
    },
    SLOW,
  );

  it(
    'nothing shifts as the page loads and as the highlighted section changes (1280 and 1440 px)',
    async () => {
      for (const width of [1280, 1440]) {
        const { context, page } = await openPage(site, { viewport: { width, height: 900 }, reducedMotion: 'reduce' });
        context.setDefaultTimeout(30_000);
        // Each shift, with what moved (its elements' classes), and whether that was in a table of contents.
        await page.addInitScript(() => {
          const shifts: Array<{ value: number; moved: string[]; toc: boolean }> = [];
          (window as Window & { __shifts?: typeof shifts }).__shifts = shifts;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as Array<
              PerformanceEntry & { value: number; sources: Array<{ node?: Node }> }
            >) {
              const moved = entry.sources.map((s) => s.node).filter((node) => node instanceof Element);
              shifts.push({
                value: entry.value,
                moved: moved.map((element) => `${element.tagName}.${element.className}`),
                toc: moved.some((element) => element.closest('.toc') !== null),
              });
            }
          }).observe({ type: 'layout-shift', buffered: true });
        });
        const shifts = () =>
          page.evaluate(
            () => (window as Window & { __shifts?: Array<{ value: number; moved: string[]; toc: boolean }> }).__shifts!,
          );
        for (const prefix of ['', 'zh-cn/']) {
          await gotoHydrated(page, site.url(`${prefix}dictionary/`));
          await nextFrames(page);
          // A page is never painted before its <main> has been parsed whole (first-frame.test.ts), so
          // a busy machine, which parses it in slices, cannot make it move either.
          const loading = await shifts();
          const load = loading.reduce((sum, s) => sum + s.value, 0);
          expect(load, `${width} px ${prefix}: layout shift while loading ${JSON.stringify(loading)}`).toBeLessThan(
            0.001,
          );
          const ids = await page.locator('.markdown h2[id]').evaluateAll((hs) => hs.map((h) => h.id));
          for (const id of ids) await scrollToHeading(page, id);
          for (const id of ids.reverse()) await scrollToHeading(page, id);
          expect(
            (await shifts()).filter((s) => s.toc),
            `${width} px ${prefix}: the table of contents moved`,
          ).toEqual([]);
        }
        await context.close();
      }
    },
    SLOW,
  );
});

/** The block of the chapter at the reading line (below the navbar), the section highlighted, and the URL's #fragment. */
function place(page: Page) {
  return page.evaluate(() => {
    const line = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop);
    const blocks = [...document.querySelector('.markdown')!.children];
    const block = blocks.findIndex((b) => b.getBoundingClientRect().bottom > line);
    const shown = [...document.querySelectorAll<HTMLElement>('.toc')].find((toc) => toc.offsetParent !== null);
    return {
      block,
      section: shown?.querySelector('.toc-link.active')?.getAttribute('href'),
      hash: location.hash,
    };
  });
}

/**
 * Puts the reader two fifths into the content block `index` blocks after the heading, with every
 * block laid out (as after reading down to it), the navbar shown (as after scrolling up a little to
 * reach the language menu).
 */
async function readAt(page: Page, heading: string, index: number) {
  await page.evaluate(() => document.documentElement.classList.add('render-all'));
  await nextFrames(page);
  await page.evaluate(
    ([id, n]) => {
      let block = document.getElementById(id)!;
      for (let i = 0; i < n; i++) block = block.nextElementSibling as HTMLElement;
      const line = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop);
      const { top, height } = block.getBoundingClientRect();
      scrollTo({ top: scrollY + top - line + 0.4 * height + 40, behavior: 'instant' });
    },
    [heading, index] as const,
  );
  await nextFrames(page);
  await page.evaluate(() => document.documentElement.classList.remove('render-all'));
  await nextFrames(page);
  // The reader's own scroll up (the navbar follows only the reader's scrolls: use-browser-state.ts).
  // The scrolls above are a script's, but one that comes within a second of a click (the Next link
  // of a test before) counts as the reader's and hides the navbar, depending on how long the machine
  // took: marked as the reader's, this one shows it again whatever came before.
  await page.evaluate(() => {
    window.dispatchEvent(new WheelEvent('wheel', { deltaY: -40 }));
    scrollBy({ top: -40, behavior: 'instant' });
  });
  await page.waitForFunction(() => !document.querySelector('.navbar-hidden'));
  await nextFrames(page);
}

/**
 * Opens the language menu and picks a language with the mouse, where they are on the screen (a
 * locator's click would first scroll them into view, and the navbar is sticky: the page moves).
 */
async function switchLanguage(page: Page, label: string) {
  // A late layout shift (blocks leaving content-visibility) can move the page and hide the sticky
  // navbar between measuring the summary and clicking it, so the click is repeated, measured
  // afresh each time, until the menu is open. A click on the open summary is never sent.
  await expect
    .poll(
      async () => {
        if (await page.locator('.language-dropdown[open]').count()) return true;
        await page.waitForFunction(() => !document.querySelector('.navbar-hidden'));
        const summary = (await page.locator('.language-dropdown summary').boundingBox())!;
        await page.mouse.click(summary.x + summary.width / 2, summary.y + summary.height / 2);
        return (await page.locator('.language-dropdown[open]').count()) > 0;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  const link = page.locator('.language-dropdown a', { hasText: label });
  await link.waitFor();
  const box = (await link.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

describe('switching language keeps the reader’s place', () => {
  for (const [from, to, label] of [
    ['', 'zh-cn/', '简体中文'],
    ['zh-cn/', '', 'English'],
  ] as const) {
    it(
      `lands on the same section and block, without a #heading in the URL (${from || 'en/'} -> ${to || 'en/'})`,
      async () => {
        const { context, page, problems } = await openPage(site, { reducedMotion: 'reduce' });
        context.setDefaultTimeout(30_000);
        await gotoHydrated(page, site.url(`${from}dictionary/`));
        const ids = await page.locator('.markdown h2[id]').evaluateAll((hs) => hs.map((h) => h.id));
        await readAt(page, ids[Math.floor(ids.length / 2)], 2);
        const before = await place(page);
        expect(before.section).toBe(`#${ids[Math.floor(ids.length / 2)]}`);
        expect(before.hash).toBe('');
        await switchLanguage(page, label);
        await page.waitForURL(site.url(`${to}dictionary/`));
        await waitForHydration(page);
        await expect.poll(() => place(page)).toEqual(before);
        expect(problems).toEqual([]);
        await context.close();
      },
      SLOW,
    );
  }

  it(
    'also after a client-side navigation (en -> zh-cn)',
    async () => {
      const { context, page, problems } = await openPage(site, {
        viewport: { width: 1440, height: 900 },
        reducedMotion: 'reduce',
      });
      context.setDefaultTimeout(30_000);
      await gotoHydrated(page, site.url('dictionary/'));
      await page.evaluate(() => {
        (window as Window & { __kept?: boolean }).__kept = true;
      });
      await page.locator('.pagination-next').click();
      await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Sets');
      expect(await page.evaluate(() => (window as Window & { __kept?: boolean }).__kept)).toBe(true);
      const ids = await page.locator('.markdown h2[id]').evaluateAll((hs) => hs.map((h) => h.id));
      await readAt(page, ids[ids.length - 2], 1);
      const before = await place(page);
      expect(before.section).toBe(`#${ids[ids.length - 2]}`);
      await switchLanguage(page, '简体中文');
      await page.waitForURL(site.url('zh-cn/set/'));
      await waitForHydration(page);
      await expect.poll(() => place(page)).toEqual(before);
      expect(problems).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  it(
    'a page opened at a #heading: the other language opens where the reader has read to, its URL without the #heading',
    async () => {
      const { context, page } = await openPage(site, { reducedMotion: 'reduce' });
      context.setDefaultTimeout(30_000);
      await gotoHydrated(page, site.url('dictionary/#merging-dictionaries'));
      const ids = await page.locator('.markdown h2[id]').evaluateAll((hs) => hs.map((h) => h.id));
      const later = ids[ids.indexOf('merging-dictionaries') + 1];
      for (const [heading, block] of [
        ['merging-dictionaries', 2],
        [later, 1],
      ] as const) {
        await gotoHydrated(page, site.url('dictionary/#merging-dictionaries'));
        await readAt(page, heading, block);
        const before = await place(page);
        expect(before).toMatchObject({ section: `#${heading}`, hash: '#merging-dictionaries' });
        await switchLanguage(page, '简体中文');
        await page.waitForURL(site.url('zh-cn/dictionary/'));
        await waitForHydration(page);
        await expect.poll(() => place(page)).toEqual({ ...before, hash: '' });
      }
      await context.close();
    },
    SLOW,
  );

  it(
    'without session storage, the section in view goes along as a #heading',
    async () => {
      const { context, page } = await openPage(site, { reducedMotion: 'reduce' });
      context.setDefaultTimeout(30_000);
      await page.addInitScript(() => {
        Storage.prototype.setItem = () => {
          throw new DOMException('storage is disabled', 'SecurityError');
        };
      });
      await gotoHydrated(page, site.url('zh-cn/dictionary/'));
      await readAt(page, 'merging-dictionaries', 2);
      expect((await place(page)).section).toBe('#merging-dictionaries');
      await switchLanguage(page, 'English');
      await page.waitForURL(site.url('dictionary/#merging-dictionaries'));
      await waitForHydration(page);
      const top = () =>
        page.evaluate(() => document.getElementById('merging-dictionaries')!.getBoundingClientRect().top);
      await expect.poll(top).toBeGreaterThanOrEqual(0);
      expect(await top()).toBeLessThan(150);
      await context.close();
    },
    SLOW,
  );
});
