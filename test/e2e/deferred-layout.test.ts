import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';

const site = useSiteUnderTest();
const EXAMPLES = '.markdown > :is(.compare, .code-block)';

/** Whether the browser renders the contents of the nth example, rather than skipping them (checkVisibility). */
const rendered = (page: Page, index: number) => page.evaluate(({ selector, index }) =>
  document.querySelectorAll(selector)[index]!.firstElementChild!.checkVisibility({ contentVisibilityAuto: true }), { selector: EXAMPLES, index });

/**
 * A chapter's examples further down are laid out only when they come near the viewport
 * (content-visibility: auto): the first rendering of a long chapter is much cheaper. What the
 * reader sees must not change for it: the examples render as they scroll in, find-in-page and
 * screen readers still reach them, and a scroll to a heading lands on it.
 */
describe('examples below the fold are laid out late', () => {
  it('skips the examples far below the viewport, renders each as it scrolls into view, and keeps its text in the page', async () => {
    const { context, page, problems } = await openPage(site, { viewport: { width: 390, height: 800 } });
    await gotoHydrated(page, site.url('dictionary/'));
    const examples = page.locator(EXAMPLES);
    const count = await examples.count();
    expect(count).toBeGreaterThan(8);
    const last = count - 1;
    expect(await rendered(page, 0)).toBe(true);
    expect(await rendered(page, last)).toBe(false);
    // Skipped, not removed: its code is in the DOM, for find-in-page and assistive technology.
    expect(await examples.nth(last).textContent()).toMatch(/\S{3}/);
    await examples.nth(last).scrollIntoViewIfNeeded();
    await expect.poll(() => rendered(page, last)).toBe(true);
    expect(problems).toEqual([]);
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
    const offset = () => heading.evaluate((h) => Math.abs(h.getBoundingClientRect().top - parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop)));
    await expect.poll(offset).toBeLessThanOrEqual(1);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await offset()).toBeLessThanOrEqual(1);
    await context.close();
  });
});
