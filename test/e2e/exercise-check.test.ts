import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';
import { LONG, checkExercise, starter } from './runner-support.js';

const site = useSiteUnderTest();

/** A cold Pyodide start on a busy machine can take minutes: the checks wait for conditions, this bounds them. */
/** Clicks Check and waits for the results that follow it. */
const check = (block: Locator) => checkExercise(block);

/**
 * Opens the page with nothing of the reader's kept in this browser: the earlier tests' edits are
 * kept across visits (the learner's work), and each test starts from the book's code.
 */
async function fromTheBooksCode(page: Page, url: string): Promise<void> {
  await gotoHydrated(page, url);
  await page.evaluate(() => localStorage.clear());
  await gotoHydrated(page, url);
}

describe('an exercise the reader checks in the page', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    ({ context, page, problems } = await openPage(site, { viewport: { width: 1280, height: 900 } }));
    context.setDefaultTimeout(20_000);
  });
  afterAll(async () => {
    await context?.close();
  });

  it(
    'Check runs the tests on the starter code and lists each case, the failing one with input, expected and actual',
    async () => {
      await gotoHydrated(page, site.url('lists-and-tuples/'));
      const block = starter(page);
      const button = block.locator('button[data-code-action=check]');
      expect(await button.textContent()).toBe('Check');
      expect(await block.locator('.exercise-results').isHidden()).toBe(true);
      const result = await check(block);
      expect(result).toEqual({ summary: '3 of 4 tests pass', passed: 'false' });
      const cases = block.locator('.exercise-case');
      expect(await cases.count()).toBe(4);
      const failed = block.locator('.exercise-case[data-passed="false"]');
      expect(await failed.locator('.exercise-case-name').textContent()).toMatch(
        /^✗ test_leaves_the_orders_unchanged \(tests, line \d+\)$/,
      );
      // The starter sorts the caller's list in place: the values say so.
      const values = await failed.locator('dd').allTextContents();
      expect(values).toEqual([
        'sales',
        "[('mug', 12), ('lamp', 30), ('pen', 7)]",
        "[('lamp', 30), ('mug', 12), ('pen', 7)]",
      ]);
      expect(await block.locator('.code-run-status').textContent()).toBe('3 of 4 tests pass');
      expect(problems).toEqual([]);
    },
    LONG,
  );

  it(
    "checks the reader's edit: the fixed code passes every test; code that does not load says why",
    async () => {
      await fromTheBooksCode(page, site.url('lists-and-tuples/'));
      const block = starter(page);
      await block.locator('button[data-code-action=edit]').click();
      const editor = block.locator('.code-editor .cm-content');
      await editor.fill(
        [
          'def rank_sales(sales):',
          '    ranked = sorted(sales, key=lambda item: item[1], reverse=True)',
          '    return ranked[:3], sorted(product for product, _ in ranked[3:])',
        ].join('\n'),
      );
      expect(await check(block)).toEqual({ summary: 'All 4 tests pass. Well done!', passed: 'true' });
      expect(await block.locator('.exercise-case[data-passed="true"]').count()).toBe(4);

      await editor.fill('def rank_sales(sales)\n    return sales');
      const broken = await check(block);
      expect(broken.passed).toBe('false');
      // The summary names the line of the reader's code, with a button to go there.
      expect(broken.summary).toMatch(/^The code stopped with an error before any test ran: \(your code, line 1\)/);
      expect(await block.locator('.exercise-error').textContent()).toMatch(/^exercise\.py: .*SyntaxError/s);
    },
    LONG,
  );

  it(
    "an endless loop in the reader's code ends at the time limit, and the next Check works",
    async () => {
      await page.route(/\/assets\/site\/en\.[0-9a-f]+\.json$/, async (route) => {
        const response = await route.fetch();
        const data = (await response.json()) as { runner: { timeLimitMs: number } };
        data.runner.timeLimitMs = 4000;
        await route.fulfill({ response, json: data });
      });
      await fromTheBooksCode(page, site.url('lists-and-tuples/'));
      const block = starter(page);
      await block.locator('button[data-code-action=edit]').click();
      const editor = block.locator('.code-editor .cm-content');
      await editor.fill('while True:\n    pass');
      const stuck = await check(block);
      expect(stuck.summary).toBe('The check did not finish:');
      expect(await block.locator('.exercise-error').textContent()).toBe('Stopped after 4 s: the time limit of a run.');
      await editor.fill('def rank_sales(sales):\n    return [], []');
      // Leaves the list alone, and gets the rest wrong.
      expect((await check(block)).summary).toBe('1 of 4 tests pass');
      await page.unroute(/\/assets\/site\/en\.[0-9a-f]+\.json$/);
    },
    LONG,
  );

  it(
    'while the tests run, Check is Stop: Stop ends the check at once, and the next Check works',
    async () => {
      await fromTheBooksCode(page, site.url('lists-and-tuples/'));
      const block = starter(page);
      await block.locator('button[data-code-action=edit]').click();
      const editor = block.locator('.code-editor .cm-content');
      await editor.fill('while True:\n    pass');
      await block.locator('.exercise-results').evaluate((region) => region.replaceChildren());
      await block.locator('button[data-code-action=check]').click();
      const stop = block.locator('button[data-code-action=stop]');
      await stop.waitFor({ timeout: 240_000 });
      expect(await stop.getAttribute('aria-label')).toBe('Stop');
      expect(await stop.locator('.code-run-label').textContent()).toBe('Stop');
      // Its check mark gives way to a stop square.
      expect(await stop.locator('svg').isHidden()).toBe(true);
      expect(await stop.evaluate((button) => getComputedStyle(button, '::before').width)).not.toBe('auto');
      // Stop, once the check has started (its status line says so).
      await expect.poll(() => block.locator('.code-run-status').textContent(), { timeout: 240_000 }).toBe('Checking…');
      await stop.click();
      const checkButton = block.locator('button[data-code-action=check]');
      await checkButton.waitFor({ timeout: 30_000 });
      expect(await checkButton.getAttribute('aria-label')).toBe("Check: run the exercise's tests on this code");
      expect(await block.locator('.exercise-results .exercise-summary').textContent()).toBe(
        'The check did not finish:',
      );
      expect(await block.locator('.exercise-error').textContent()).toBe('Stopped.');
      await editor.fill('def rank_sales(sales):\n    return [], []');
      expect((await check(block)).summary).toBe('1 of 4 tests pass');
    },
    LONG,
  );

  it(
    'speaks Chinese on the Chinese pages: 检查, and the results in Chinese',
    async () => {
      await gotoHydrated(page, site.url('zh-cn/lists-and-tuples/'));
      const block = starter(page);
      expect(await block.locator('button[data-code-action=check]').textContent()).toBe('检查');
      // The English page's edit is kept for this one too (the same code): back to the starter.
      await block.locator('button[data-code-action=reset]').click();
      expect(await check(block)).toEqual({ summary: '4 个测试中通过了 3 个', passed: 'false' });
      expect(await block.locator('.exercise-case[data-passed="false"] dt').allTextContents()).toEqual([
        '输入',
        '期望',
        '实际',
      ]);
    },
    LONG,
  );

  it('nothing of the runtime loads before a sign of intent on a page with an exercise', async () => {
    const fresh = await openPage(site);
    const requests: string[] = [];
    fresh.page.on('request', (request) => requests.push(request.url()));
    await gotoHydrated(fresh.page, site.url('zh-cn/set/'));
    expect(await starter(fresh.page).locator('button[data-code-action=check]').count()).toBe(1);
    await fresh.page.waitForLoadState('networkidle');
    expect(requests.filter((url) => /\/assets\/(runner[./]|pyodide-)/.test(url))).toEqual([]);
    await fresh.context.close();
  });
});
