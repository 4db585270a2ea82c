import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, nextFrames, openPage, useSiteUnderTest } from './client-support.js';

const site = useSiteUnderTest();
const EXAMPLES = '.markdown > :is(.compare, .code-block)';
/** Paragraphs with an element inside, whose rendering checkVisibility can tell. */
const PARAGRAPHS = '.markdown > p:has(> *)';

/**
 * Whether the browser renders the contents of the nth block `selector` matches, rather than skipping
 * them (checkVisibility): for an example its code (what is deferred in a block with code), else the
 * block's first element.
 */
const rendered = (page: Page, selector: string, index: number) =>
  page.evaluate(
    ({ selector, index }) => {
      const block = document.querySelectorAll(selector)[index];
      return (block.querySelector('.code-pre code') ?? block.firstElementChild)!.checkVisibility({
        contentVisibilityAuto: true,
      });
    },
    { selector, index },
  );

/**
 * A chapter's blocks further down (examples, paragraphs, lists, tables) are laid out only when
 * they come near the viewport (content-visibility: auto): the first rendering of a long chapter is
 * much cheaper. What the reader sees must not change for it: the blocks render as they scroll in,
 * find-in-page and screen readers still reach them, a focus ring is not cut, and a scroll to a
 * heading lands on it.
 */
describe('blocks below the fold are laid out late', () => {
  it.each([
    ['an example', EXAMPLES],
    ['a paragraph', PARAGRAPHS],
  ])(
    'skips %s far below the viewport, renders it as it scrolls into view, and keeps its text in the page',
    async (_, selector) => {
      const { context, page, problems } = await openPage(site, { viewport: { width: 390, height: 800 } });
      await gotoHydrated(page, site.url('dictionary/'));
      const blocks = page.locator(selector);
      const count = await blocks.count();
      expect(count).toBeGreaterThan(8);
      const last = count - 1;
      expect(await rendered(page, selector, 0)).toBe(true);
      expect(await rendered(page, selector, last)).toBe(false);
      // Skipped, not removed: its text is in the DOM, for find-in-page and assistive technology.
      expect(await blocks.nth(last).textContent()).toMatch(/\S{3}/);
      await blocks.nth(last).scrollIntoViewIfNeeded();
      await expect.poll(() => rendered(page, selector, last)).toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  // A deferred block takes a placeholder height until it comes near the viewport. Where that height
  // was a guess, the page moved as the code was laid out: a tap on Edit landed on the output of the
  // block above, because the button moved 108 px between touchend and click.
  it.each([
    ['a phone', { width: 390, height: 844 }, true],
    ['a laptop', { width: 1280, height: 800 }, false],
  ])('on %s, code that waits to be laid out is already as tall as it will be', async (_, viewport, touch) => {
    const { context, page } = await openPage(site, { viewport, isMobile: touch, hasTouch: touch });
    for (const chapter of ['dictionary/', 'async-and-await/', 'zh-cn/dictionary/', 'zh-cn/async-and-await/']) {
      await gotoHydrated(page, site.url(chapter));
      const heights = () =>
        page.evaluate(() =>
          [...document.querySelectorAll('.markdown .code-pre')].map((pre) => ({
            height: pre.getBoundingClientRect().height,
            deferred: !pre.firstElementChild!.checkVisibility({ contentVisibilityAuto: true }),
          })),
        );
      const waiting = await heights();
      expect(waiting.filter((pre) => pre.deferred).length, chapter).toBeGreaterThan(5);
      await page.evaluate(() => document.documentElement.classList.add('render-all'));
      const laidOut = await heights();
      const moved = waiting.flatMap(({ height, deferred }, i) =>
        deferred && Math.abs(laidOut[i].height - height) > 1 ? [`#${i}: ${height} → ${laidOut[i].height}`] : [],
      );
      expect(moved, chapter).toEqual([]);
    }
    await context.close();
  });

  // A deferred block clips what it paints to its box (paint containment), and a link's focus ring
  // is drawn 2-4px outside the link: at a line's start, outside the block.
  it('paints the whole focus ring of a link that starts a line in a deferred block', async () => {
    const { context, page } = await openPage(site, { viewport: { width: 390, height: 800 }, reducedMotion: 'reduce' });
    await gotoHydrated(page, site.url('dictionary/'));
    const where = await page.evaluate(() => {
      const blocks = [...document.querySelectorAll('.markdown > *')];
      for (const [b, block] of blocks.entries()) {
        // Deferred, with room on screen left of it for the ring (a full-width block has none).
        if (getComputedStyle(block).contentVisibility !== 'auto' || block.getBoundingClientRect().left < 4) continue;
        for (const [l, link] of [...block.querySelectorAll('a[href]')].entries()) {
          const line = link.getClientRects()[0];
          if (line && line.left - block.getBoundingClientRect().left < 1) return { b, l };
        }
      }
      return null;
    });
    expect(where, 'a link at the start of a line in a deferred block').not.toBeNull();
    const block = page.locator('.markdown > *').nth(where!.b);
    const link = block.locator('a[href]').nth(where!.l);
    // Blocks above it take their real heights as the scroll passes them, which can move it again:
    // scrolled to until it stays in view.
    await expect
      .poll(async () => {
        await link.scrollIntoViewIfNeeded();
        await nextFrames(page);
        return link.evaluate((a) => {
          const line = a.getClientRects()[0];
          return line.top >= 0 && line.bottom <= innerHeight;
        });
      })
      .toBe(true);
    // The 4px strip left of the block, beside the link's first line.
    const strip = async () => {
      const { x, y, height } = await link.evaluate((a) => {
        const line = a.getClientRects()[0];
        return { x: a.closest('.markdown > *')!.getBoundingClientRect().left - 4, y: line.top, height: line.height };
      });
      return page.screenshot({ clip: { x, y, width: 4, height } });
    };
    const blurred = await strip();
    await page.keyboard.press('Shift');
    await link.focus();
    expect(await link.evaluate((a) => a.matches(':focus-visible'))).toBe(true);
    expect((await strip()).equals(blurred), 'the ring shows left of the block').toBe(false);
    await context.close();
  });

  it('an in-page link to a heading far down lands with the heading at the top', async () => {
    const { context, page } = await openPage(site, { viewport: { width: 390, height: 800 }, reducedMotion: 'reduce' });
    await gotoHydrated(page, site.url('dictionary/'));
    // A heading half-way down a long chapter: examples above it start deferred, and the page can
    // scroll far enough to put it at the top.
    const headings = page.locator('.markdown h2[id]');
    const heading = headings.nth(Math.floor((await headings.count()) / 2));
    const id = await heading.getAttribute('id');
    // As a reader on a phone does it: open the table of contents above the chapter, tap the heading.
    await page.locator('.toc-collapsible > summary').click();
    await page.locator(`.toc-collapsible a[href="#${id}"]`).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#${id}`);
    // The heading's top where the page's scroll padding (room for the navbar) puts it, within a
    // pixel (scroll offsets are whole pixels, layout is not), and it stays there as the examples
    // around it are laid out.
    const offset = () =>
      heading.evaluate((h) =>
        Math.abs(
          h.getBoundingClientRect().top - parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop),
        ),
      );
    await expect.poll(offset).toBeLessThanOrEqual(1);
    await nextFrames(page);
    expect(await offset()).toBeLessThanOrEqual(1);
    await context.close();
  });

  // A block that is laid out because of the full layout (src/client/scroll-spot.ts) and one laid
  // out as it nears the viewport must have the same height: a full layout without containment let
  // the margins inside a block collapse through it, and the page grew by some 9 px once the
  // blocks were deferred again.
  it('a block is as tall laid out in full as when it is laid out near the viewport', async () => {
    const { context, page } = await openPage(site);
    await gotoHydrated(page, site.url('dictionary/'));
    const pageHeight = () => page.evaluate(() => document.documentElement.scrollHeight);
    // Every block laid out once, so that the browser knows each one's real height (what the
    // full layout before a scroll does, src/client/scroll-spot.ts).
    await page.evaluate(() => document.documentElement.classList.add('render-all'));
    await nextFrames(page);
    await page.evaluate(() => document.documentElement.classList.remove('render-all'));
    // At the foot of the chapter its last blocks are laid out because they are in view.
    await page.evaluate(() => scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
    await nextFrames(page);
    const nearViewport = await pageHeight();
    await page.evaluate(() => document.documentElement.classList.add('render-all'));
    expect(await pageHeight()).toBe(nearViewport);
    await page.evaluate(() => document.documentElement.classList.remove('render-all'));
    await context.close();
  });

  // The last section is too short to reach the top: the page stops at its foot, where the table of
  // contents marks the lowest heading in view. Once the deferred blocks grew the page by a few
  // pixels after the scroll, the foot was never reached and the section above was marked.
  it('a tap on the last heading in the table of contents marks that heading, after a smooth scroll', async () => {
    const { context, page } = await openPage(site);
    await gotoHydrated(page, site.url('dictionary/'));
    const last = await page.locator('.markdown h2[id]').last().getAttribute('id');
    // At 1280 px the table of contents is at the top of the sidebar.
    const scrolled = page.evaluate(
      () => new Promise<void>((resolve) => addEventListener('scrollend', () => resolve(), { once: true })),
    );
    await page.locator(`.sidebar-toc a[href="#${last}"]`).click();
    await scrolled;
    await nextFrames(page);
    expect(await page.locator('.sidebar-toc .toc-link.active').getAttribute('href')).toBe(`#${last}`);
    await context.close();
  });
});
