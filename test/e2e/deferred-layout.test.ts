import { describe, expect, it } from 'vitest';
import { gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';

const site = useSiteUnderTest();

/**
 * A chapter's examples further down are laid out only when they come near the viewport
 * (content-visibility: auto): the first rendering of a long chapter is much cheaper. What the
 * reader sees must not change for it: the examples render as they scroll in, find-in-page and
 * screen readers still reach them, and a scroll to a heading lands on it.
 */
describe('examples below the fold are laid out late', () => {
  /** Whether the browser skips rendering the contents of the nth example (checkVisibility). */
  const rendered = (index: number) => `document.querySelectorAll('.markdown > :is(.compare, .code-block)')[${index}].firstElementChild.checkVisibility({ contentVisibilityAuto: true })`;

  it('skips the examples far below the viewport, renders each as it scrolls into view, and keeps its text in the page', async () => {
    const { context, page, problems } = await openPage(site, { viewport: { width: 390, height: 800 } });
    await gotoHydrated(page, site.url('dictionary/'));
    const count = await page.locator('.markdown > :is(.compare, .code-block)').count();
    expect(count).toBeGreaterThan(8);
    const last = count - 1;
    expect(await page.evaluate(rendered(0))).toBe(true);
    expect(await page.evaluate(rendered(last))).toBe(false);
    // Skipped, not removed: its code is in the DOM, for find-in-page and assistive technology.
    expect(await page.locator('.markdown > :is(.compare, .code-block)').nth(last).textContent()).toMatch(/\S{3}/);
    await page.locator('.markdown > :is(.compare, .code-block)').nth(last).scrollIntoViewIfNeeded();
    await expect.poll(() => page.evaluate(rendered(last))).toBe(true);
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
    // A link the page itself has (the table of contents may be collapsed on a phone): a DOM click.
    await page.evaluate((target) => {
      const link = Object.assign(document.createElement('a'), { href: `#${target}`, textContent: 'to the heading' });
      document.querySelector('.markdown')!.prepend(link);
      link.click();
    }, id);
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#${id}`);
    // The heading's top where the page's scroll padding (room for the navbar) puts it, and it stays
    // there as the examples around it are laid out.
    // Within a pixel: scroll offsets are whole pixels, layout is not.
    const offset = () => heading.evaluate((h) => Math.abs(h.getBoundingClientRect().top - parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop)));
    await expect.poll(offset).toBeLessThanOrEqual(1);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await offset()).toBeLessThanOrEqual(1);
    await context.close();
  });
});
