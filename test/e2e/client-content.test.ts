import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';

const site = useSiteUnderTest();

const chapterSource = (locale: string, slug: string) =>
  fs.readFileSync(fileURLToPath(new URL(`../../book/${locale}/${slug}.mdx`, import.meta.url)), 'utf8');

describe('code blocks', () => {
  for (const { prefix, locale, copied } of [
    { prefix: '', locale: 'en', copied: 'Copied' },
    { prefix: 'zh-cn/', locale: 'zh-cn', copied: '已复制' },
  ]) {
    it(`copy puts the exact code on the clipboard and says "${copied}"; word wrap toggles (${locale})`, async () => {
      const { context, page, problems } = await openPage(site, { permissions: ['clipboard-read', 'clipboard-write'] });
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      const blocks = page.locator('main .code-block');
      expect(await blocks.count()).toBeGreaterThan(3);
      const source = chapterSource(locale, 'dictionary');
      // Two different blocks, so the clipboard really changes between them.
      for (const index of [0, 3]) {
        const block = blocks.nth(index);
        const copy = block.locator('button[data-code-action="copy"]');
        const before = await copy.textContent();
        await copy.click();
        await expect.poll(() => copy.textContent()).toBe(copied);
        const clipboard = await page.evaluate(() => navigator.clipboard.readText());
        // Exactly the fenced code from the chapter: no button labels, no output, no trailing newline.
        expect(clipboard.length).toBeGreaterThan(10);
        expect(source).toContain(`\n${clipboard}\n\`\`\``);
        expect(clipboard).not.toMatch(/Copy|复制|\n$/);
        if (index === 0) {
          // The label returns after a moment.
          await expect.poll(() => copy.textContent(), { timeout: 4000 }).toBe(before);
        }
      }

      // A block outside a comparison: compared code always wraps, so the toggle shows on a standalone one.
      const block = page.locator('main .code-block:not(.compare .code-block)').first();
      const wrap = block.locator('button[data-code-action="wrap"]');
      const whiteSpace = () => block.locator('.code-pre').evaluate((pre) => getComputedStyle(pre).whiteSpace);
      expect(await wrap.getAttribute('aria-pressed')).toBe('false');
      const unwrapped = await whiteSpace();
      await wrap.click();
      expect(await block.evaluate((b) => b.classList.contains('wrap'))).toBe(true);
      expect(await wrap.getAttribute('aria-pressed')).toBe('true');
      expect(await whiteSpace()).not.toBe(unwrapped);
      await wrap.click();
      expect(await block.evaluate((b) => b.classList.contains('wrap'))).toBe(false);
      expect(await wrap.getAttribute('aria-pressed')).toBe('false');
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('buttons also work on a page reached by client-side navigation', async () => {
    const { context, page } = await openPage(site, { permissions: ['clipboard-read', 'clipboard-write'] });
    await gotoHydrated(page, site.url('dictionary/'));
    await page.locator('.pagination-next').click();
    await page.waitForURL(/\/set\/$/);
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Sets');
    const copy = page.locator('main .code-block button[data-code-action="copy"]').first();
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe('Copied');
    expect(chapterSource('en', 'set')).toContain(
      `\n${await page.evaluate(() => navigator.clipboard.readText())}\n\`\`\``,
    );
    await context.close();
  });
});

describe('tabs', () => {
  for (const prefix of ['', 'zh-cn/']) {
    it(`switch on click and with the arrow keys, Home and End (${prefix || 'en/'}setup-environment)`, async () => {
      const { context, page, problems } = await openPage(site);
      await gotoHydrated(page, site.url(`${prefix}setup-environment/`));
      const tabs = page.locator('main [data-tabs]').first();
      const tab = (value: string) => tabs.locator(`[role=tab][data-tab="${value}"]`);
      const visiblePanel = () => tabs.locator('[role=tabpanel]:not([hidden])').getAttribute('data-tab-panel');
      const selected = () => tabs.locator('[role=tab][aria-selected="true"]').getAttribute('data-tab');
      expect(await visiblePanel()).toBe('macos');
      expect(await tabs.locator('[role=tabpanel]:not([hidden])').count()).toBe(1);

      await tab('linux').click();
      // The first click may still be loading the content behaviour chunk: wait for the switch.
      await expect.poll(selected).toBe('linux');
      expect(await visiblePanel()).toBe('linux');
      expect(await tabs.locator('[role=tabpanel]:not([hidden])').textContent()).toContain('apt');

      // Keyboard: focus moves with the selection; arrows wrap around.
      await tab('linux').focus();
      await page.keyboard.press('ArrowRight');
      expect(await selected()).toBe('macos');
      expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.tab)).toBe('macos');
      await page.keyboard.press('ArrowRight');
      expect(await visiblePanel()).toBe('windows');
      await page.keyboard.press('ArrowLeft');
      expect(await visiblePanel()).toBe('macos');
      await page.keyboard.press('End');
      expect(await visiblePanel()).toBe('linux');
      await page.keyboard.press('Home');
      expect(await visiblePanel()).toBe('macos');
      // Only the selected tab is in the Tab order.
      expect(await tabs.locator('[role=tab][tabindex="0"]').count()).toBe(1);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
