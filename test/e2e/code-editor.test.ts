import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';

const site = useSiteUnderTest();

/** The second Python example of the dictionary chapter that offers Run. */
const pythonBlock = (page: Page) =>
  page.locator('.markdown .code-block:not([data-exercise="starter"]):has(.code-run[data-run-lang="python"])').nth(1);

async function openEditor(page: Page) {
  const block = pythonBlock(page);
  await block.locator('button[data-code-action=edit]').click();
  const content = block.locator('.code-editor .cm-content');
  await expect.poll(() => content.evaluate((e) => e === document.activeElement)).toBe(true);
  return { block, content };
}

/** The editor's text, line by line (CodeMirror keeps one element per line). */
const editorText = (page: Page) =>
  pythonBlock(page)
    .locator('.code-editor .cm-line')
    .allTextContents()
    .then((lines) => lines.join('\n'));

describe('the editor of an example (CodeMirror)', () => {
  it('indents with Tab, keeps and adds indentation on Enter, and lets Escape then Tab leave it', async () => {
    const { context, page, problems } = await openPage(site, { viewport: { width: 1280, height: 900 } });
    await gotoHydrated(page, site.url('dictionary/'));
    const { block, content } = await openEditor(page);
    // The book's code keeps the page's colours while it is edited.
    expect(await block.locator('.code-editor .tok-keyword, .code-editor .tok-string').count()).toBeGreaterThan(0);
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    await page.keyboard.type('for n in range(2):');
    await page.keyboard.press('Enter');
    await page.keyboard.type('print(n)');
    expect(await editorText(page)).toBe('for n in range(2):\n    print(n)');
    await page.keyboard.press('Home');
    await page.keyboard.press('Tab');
    expect(await editorText(page)).toBe('for n in range(2):\n        print(n)');
    await page.keyboard.press('Shift+Tab');
    expect(await editorText(page)).toBe('for n in range(2):\n    print(n)');
    // Tab stayed in the editor; Escape then Tab moves on to the next control.
    expect(await content.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    expect(await content.evaluate((e) => e === document.activeElement)).toBe(false);
    // Reset's accessible name starts with what it shows (WCAG 2.5.3), and it puts the book's code back.
    const reset = block.locator('button[data-code-action=reset]');
    expect(await reset.getAttribute('aria-label')).toMatch(new RegExp(`^${await reset.textContent()}`));
    await reset.click();
    expect(await block.locator('.code-editor').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('on a phone: 16 px text (no zoom on focus) and long lines wrap instead of scrolling sideways', async () => {
    const { context, page } = await openPage(site, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await gotoHydrated(page, site.url('dictionary/'));
    const block = pythonBlock(page);
    await block.locator('button[data-code-action=edit]').tap();
    const content = block.locator('.code-editor .cm-content');
    await content.waitFor();
    await content.fill(`print("${'a long line that does not fit '.repeat(4)}")`);
    const fontSize = await content.evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    expect(fontSize).toBeGreaterThanOrEqual(16);
    const scroller = block.locator('.code-editor .cm-scroller');
    const overflow = await scroller.evaluate((e) => e.scrollWidth - e.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });
});
