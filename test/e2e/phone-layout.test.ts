import { describe, expect, it } from 'vitest';
import { openPage, useSiteUnderTest, waitForHydration } from './client-support.js';

const site = useSiteUnderTest();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
/** Pages open on a machine shared with other builds. */
const SLOW = 180_000;

describe('phones', () => {
  it(
    'no chapter page scrolls sideways at 390 px, even with a long inline code in a warning (en, zh-cn)',
    async () => {
      const { context, page } = await openPage(site, PHONE);
      context.setDefaultTimeout(60_000);
      for (const route of [
        'async-and-await/',
        'zh-cn/async-and-await/',
        'dictionary/',
        'zh-cn/create-and-import-packages/',
      ]) {
        await page.goto(site.url(route));
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, route).toBeLessThanOrEqual(390);
      }
      await context.close();
    },
    SLOW,
  );

  it(
    'Run, Check, Edit, Reset, Undo, Copy and wrap are at least 44 px tall and wide on a touch screen',
    async () => {
      const { context, page } = await openPage(site, PHONE);
      context.setDefaultTimeout(60_000);
      await page.goto(site.url('dictionary/'));
      await waitForHydration(page);
      const sizes = () =>
        page.$$eval('.code-run button, .code-button', (buttons) =>
          buttons.map((b) => {
            const box = b.getBoundingClientRect();
            return { action: (b as HTMLElement).dataset.codeAction, height: box.height, width: box.width };
          }),
        );
      const before = await sizes();
      expect(new Set(before.map((b) => b.action))).toEqual(new Set(['run', 'check', 'edit', 'copy', 'wrap']));
      for (const button of before) {
        expect(button.height, button.action).toBeGreaterThanOrEqual(44);
        expect(button.width, button.action).toBeGreaterThanOrEqual(44);
      }
      // Edit turns into Reset.
      await page.locator('.code-run button[data-code-action="edit"]').first().click();
      const reset = page.locator('.code-run button[data-code-action="reset"]').first();
      await reset.waitFor();
      expect((await reset.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      // Reset of an edit offers Undo beside the status line: fingertip-sized too.
      await page.locator('.code-editor .cm-content').first().fill('print("mine")');
      await reset.click();
      const undo = page.locator('.code-run .code-run-undo').first();
      await undo.waitFor();
      const box = (await undo.boundingBox())!;
      expect(Math.min(box.height, box.width)).toBeGreaterThanOrEqual(44);
      await context.close();
    },
    SLOW,
  );
});
