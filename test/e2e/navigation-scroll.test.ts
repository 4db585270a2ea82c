import { describe, expect, it } from 'vitest';
import { gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';

const site = useSiteUnderTest();

/** Where the heading sits in the viewport and how the page would scroll now. */
const headingState = (id: string) => `(() => ({
  top: document.getElementById(${JSON.stringify(id)}).getBoundingClientRect().top,
  behavior: getComputedStyle(document.documentElement).scrollBehavior,
}))()`;

describe('landing on a #heading and in-page links', () => {
  it('a URL with #heading lands on the heading at once, without a smooth scroll from the top (en, zh-cn)', async () => {
    const { context, page } = await openPage(site, { viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(60_000);
    for (const prefix of ['', 'zh-cn/']) {
      await page.goto(site.url(`${prefix}dictionary/#insertion-order`));
      // Read as soon as the page has loaded: a smooth scroll would still be near the top.
      const state = await page.evaluate<{ top: number; behavior: string }>(headingState('insertion-order'));
      expect(state.behavior).toBe('auto');
      expect(state.top).toBeGreaterThanOrEqual(0);
      expect(state.top).toBeLessThan(150);
    }
    await context.close();
  });

  it('an in-page link scrolls smoothly, except under prefers-reduced-motion', async () => {
    for (const reducedMotion of ['no-preference', 'reduce'] as const) {
      const { context, page } = await openPage(site, { viewport: { width: 900, height: 800 }, reducedMotion });
      context.setDefaultTimeout(60_000);
      await gotoHydrated(page, site.url('dictionary/'));
      await page.locator('.toc-collapsible summary').click();
      await page.locator('.toc-collapsible a[href="#insertion-order"]').click();
      const behavior = await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior);
      expect(behavior, reducedMotion).toBe(reducedMotion === 'reduce' ? 'auto' : 'smooth');
      // Either way the reader arrives at the heading.
      await expect
        .poll(async () => (await page.evaluate<{ top: number }>(headingState('insertion-order'))).top, {
          timeout: 10_000,
        })
        .toBeLessThan(150);
      await context.close();
    }
  });
});
