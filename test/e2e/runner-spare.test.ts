import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';

/**
 * A Python run is light on the wire (the build's brotli siblings of Pyodide), and a second run
 * is quick without giving up freshness: it runs in the sandbox started ahead of it (ready before
 * the click), a new interpreter that has seen nothing of the run before.
 */
const site = useSiteUnderTest();

/** A cold Pyodide start on a machine shared by many can take minutes: the runs wait for conditions, this bounds them. */
const LONG = 300_000;

const pythonBlock = (page: Page) =>
  page.locator('.markdown .code-block:not([data-exercise="starter"]):has(.code-run[data-run-lang="python"])').first();

/** Puts `code` in the block's editor, runs it and waits until the run has ended; its output. */
async function runCode(block: Locator, code: string): Promise<string> {
  if (!(await block.locator('.code-editor .cm-content').count()))
    await block.locator('button[data-code-action=edit]').click();
  await block.locator('.code-editor .cm-content').fill(code);
  const panel = block.locator('.code-run-output');
  const runs = (await panel.count()) ? Number(await panel.getAttribute('data-run')) : 0;
  await block.locator('button[data-code-action=run]').click();
  await block
    .locator(`.code-run-output[data-run="${runs + 1}"]:not([data-verdict="pending"])`)
    .waitFor({ timeout: LONG });
  return (await panel.locator('.code-output-pre').textContent()) ?? '';
}

describe('the Python runner: bytes of a first run, and the sandbox of the next', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await openPage(site));
    context.setDefaultTimeout(LONG);
    await gotoHydrated(page, site.url('dictionary/'));
  });
  afterAll(async () => {
    await context?.close();
  });

  it(
    'a first Python run transfers at most 6 MB (Pyodide sent brotli-compressed, the editor not fetched for a Run)',
    async () => {
      await page.waitForLoadState('networkidle');
      const session = await context.newCDPSession(page);
      await session.send('Network.enable');
      const urls = new Map<string, string>();
      const sizes: Array<[string, number]> = [];
      session.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url));
      session.on('Network.loadingFinished', (event) =>
        sizes.push([urls.get(event.requestId) ?? '?', event.encodedDataLength]),
      );
      const block = pythonBlock(page);
      await block.locator('button[data-code-action=run]').click();
      await block.locator('.code-run-output[data-run="1"]:not([data-verdict="pending"])').waitFor({ timeout: LONG });
      await session.detach();
      const total = sizes.reduce((sum, [, bytes]) => sum + bytes, 0);
      const wasm = sizes.find(([url]) => url.endsWith('/pyodide.asm.wasm'));
      console.log(`first Python run: ${(total / 1e6).toFixed(2)} MB on the wire in ${sizes.length} responses`);
      expect(wasm?.[1]).toBeLessThan(4e6); // 9.6 MB as it is
      expect(total).toBeLessThanOrEqual(6e6);
    },
    LONG,
  );

  it(
    'the next run takes the sandbox started ahead, ready before the click, and its Python is fresh',
    async () => {
      const block = pythonBlock(page);
      expect(await runCode(block, 'import builtins\nbuiltins.leak = 1\nleft_behind = 41\nprint("first")')).toBe(
        'first\n',
      );
      // The reader reads the output; meanwhile the spare sandbox starts. It is ready before the click.
      const spare = page.locator('iframe.code-run-sandbox[data-ready]');
      await spare.waitFor({ state: 'attached', timeout: LONG });
      expect(await page.locator('iframe.code-run-sandbox').count()).toBe(1);
      await spare.evaluate((frame) => {
        (window as unknown as { readySpare: Element }).readySpare = frame;
      });
      const started = Date.now();
      const output = await runCode(
        block,
        'import builtins\nprint(hasattr(builtins, "leak"), "left_behind" in globals())',
      );
      console.log(
        `second Python run, spare ready: ${Date.now() - started} ms from click to verdict (test driver included)`,
      );
      expect(output).toBe('False False\n');
      // The run ended in that sandbox, which was then removed: each sandbox runs one program.
      expect(await page.evaluate(() => (window as unknown as { readySpare: Element }).readySpare.isConnected)).toBe(
        false,
      );
      // And the one after it is started again, ahead of the next click.
      await spare.waitFor({ state: 'attached', timeout: LONG });
    },
    LONG,
  );

  it(
    "a run starts the next run's sandbox at once, so a run right after the first finds its interpreter started",
    async () => {
      const fresh = await openPage(site);
      fresh.context.setDefaultTimeout(LONG);
      try {
        await gotoHydrated(fresh.page, site.url('dictionary/'));
        const block = pythonBlock(fresh.page);
        await block.locator('button[data-code-action=run]').click();
        // The run's own sandbox and the next run's, both starting before the first has started Python.
        await fresh.page.locator('iframe.code-run-sandbox').nth(1).waitFor({ state: 'attached' });
        expect(await fresh.page.locator('iframe.code-run-sandbox[data-ready]').count()).toBe(0);
        expect(await block.locator('.code-run-output').getAttribute('data-verdict')).toBe('pending');
        await fresh.page
          .locator('iframe.code-run-sandbox')
          .nth(1)
          .evaluate((frame) => {
            (window as unknown as { earlySpare: Element }).earlySpare = frame;
          });
        await block.locator('.code-run-output[data-run="1"]:not([data-verdict="pending"])').waitFor({ timeout: LONG });
        // Run again at once: the run takes the sandbox started with the first run, which ends with it.
        await block.locator('button[data-code-action=run]').click();
        await block.locator('.code-run-output[data-run="2"]:not([data-verdict="pending"])').waitFor({ timeout: LONG });
        expect(await block.locator('.code-run-output').getAttribute('data-verdict')).toBe('matches');
        expect(
          await fresh.page.evaluate(() => (window as unknown as { earlySpare: Element }).earlySpare.isConnected),
        ).toBe(false);
      } finally {
        await fresh.context.close();
      }
    },
    LONG,
  );

  it(
    "a sandbox whose process dies mid-run (as a memory bomb's out-of-memory kill ends it) ends the run at once with a clear status; the page lives on and the next run works",
    async () => {
      const fresh = await openPage(site);
      fresh.context.setDefaultTimeout(LONG);
      try {
        // A time limit longer than the test: only the sandbox's silence can end the run.
        await fresh.page.route(/\/assets\/site\/en\.[0-9a-f]+\.json$/, async (route) => {
          const response = await route.fetch();
          const data = (await response.json()) as { runner: { timeLimitMs: number } };
          data.runner.timeLimitMs = 600_000;
          await route.fulfill({ response, json: data });
        });
        await gotoHydrated(fresh.page, site.url('dictionary/'));
        const blocks =
          '.markdown .code-block:not([data-exercise="starter"]):has(.code-run[data-run-lang="javascript"])';
        expect(await fresh.page.locator(blocks).count()).toBeGreaterThan(1);
        const block = fresh.page.locator(blocks).first();
        await block.locator('button[data-code-action=edit]').click();
        await block
          .locator('.code-editor .cm-content')
          .fill('console.log("looping"); await new Promise((r) => setTimeout(r, 500)); while (true) {}');
        await block.locator('button[data-code-action=run]').click();
        await block.locator('.code-run-output .code-output-pre', { hasText: 'looping' }).waitFor();
        // Playwright takes a crashed child frame for a crashed page and answers nothing more: the
        // page is watched through a CDP session of its own from here on.
        const raw = await fresh.context.newCDPSession(fresh.page);
        /** Waits in the page until `condition` (an expression) is truthy, then gives `value`'s value. */
        const when = async (condition: string, value: string): Promise<unknown> => {
          const { result, exceptionDetails } = await raw.send('Runtime.evaluate', {
            expression: `new Promise((resolve) => { const look = () => (${condition}) ? resolve(${value}) : setTimeout(look, 50); look(); })`,
            awaitPromise: true,
            returnByValue: true,
          });
          if (exceptionDetails) throw new Error(exceptionDetails.text);
          return result.value;
        };
        // The run's sandbox is the first in the page (the spare is added after it). Its renderer is
        // killed as an out-of-memory kill ends it; a sandboxed iframe has a process of its own.
        const running = await (
          await fresh.page.locator('iframe.code-run-sandbox').first().elementHandle()
        ).contentFrame();
        const session = await fresh.context.newCDPSession(running!);
        void session.send('Page.crash').catch(() => {}); // no answer comes: the target is gone
        const first = `document.querySelectorAll('${blocks}')[0]`;
        expect(
          await when(
            `${first}.querySelector('.code-run-output:not([data-verdict="pending"])')`,
            `[${first}.querySelector('.code-run-output').dataset.verdict, ${first}.querySelector('.code-run-status').textContent]`,
          ),
        ).toEqual(['crashed', expect.stringContaining('used up its memory')]);
        // The next JavaScript run (the book's code of the next block) gets a new sandbox and works.
        const second = `document.querySelectorAll('${blocks}')[1]`;
        await raw.send('Runtime.evaluate', {
          expression: `${second}.querySelector('button[data-code-action=run]').click()`,
        });
        expect(
          await when(
            `${second}.querySelector('.code-run-output:not([data-verdict="pending"])')`,
            `${second}.querySelector('.code-run-output').dataset.verdict`,
          ),
        ).toBe('matches');
      } finally {
        await fresh.context.close();
      }
    },
    LONG,
  );
});
