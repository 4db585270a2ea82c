import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';

/**
 * A Python sandbox starts on the runtime's first files while the others still download: the page
 * hands each of Pyodide's files to it as soon as that one has arrived, not all of them at the end.
 */
const site = useSiteUnderTest();

/** A cold Pyodide start on a machine shared by many can take minutes: the runs wait for conditions, this bounds them. */
const LONG = 300_000;

const pythonBlock = (page: Page) =>
  page.locator('.markdown .code-block:not([data-exercise="starter"]):has(.code-run[data-run-lang="python"])').first();

/** The performance marks the sandbox document has left so far (client/runner/timeline-marks.ts). */
async function sandboxMarks(page: Page): Promise<string[]> {
  const frame = page.frames().find((f) => f !== page.mainFrame() && /\/assets\/runner\/sandbox\./.test(f.url()));
  if (!frame) return [];
  return frame.evaluate(() => performance.getEntriesByType('mark').map((entry) => entry.name)).catch(() => []);
}

describe('the Python sandbox starts before the whole runtime has downloaded', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await openPage(site));
    context.setDefaultTimeout(LONG);
  });
  afterAll(async () => {
    await context?.close();
  });

  it(
    'the sandbox gets its start message and the files that have arrived while the standard library is held back; the run works once it arrives',
    async () => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let held: Route | undefined;
      await page.route(/\/python_stdlib\.[0-9a-f]+\.zip$/, async (route) => {
        held = route;
        await released;
        await route.continue();
      });
      await gotoHydrated(page, site.url('dictionary/'));
      const block = pythonBlock(page);
      await block.locator('button[data-code-action=run]').click();
      // While the standard library is held, the sandbox has started on what it has.
      await expect.poll(() => held !== undefined, { timeout: LONG, interval: 100 }).toBe(true);
      await expect
        .poll(() => sandboxMarks(page), { timeout: LONG, interval: 100 })
        .toContain('pybook:sandbox start message');
      expect(await block.locator('.code-run-output').getAttribute('data-verdict')).toBe('pending');
      release();
      await block.locator('.code-run-output[data-run="1"]:not([data-verdict="pending"])').waitFor({ timeout: LONG });
      expect(await block.locator('.code-run-output').getAttribute('data-verdict')).toBe('matches');
    },
    LONG,
  );
});
