import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBook } from '../../src/book/load-book.js';
import { pageRoute } from '../../src/book/routes.js';
import { normalizeOutput } from '../../src/runner/shared/diff.js';
import { loadConfig } from '../../src/config/load-config.js';
import { compileChapter } from '../../src/markdown/compile.js';
import {
  BROWSER_CHECK_FILE,
  exampleKey,
  isOfferedToRun,
  type BrowserCheckRecord,
} from '../../src/runner/build/browser-check-file.js';
import { gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';
import { LONG, runBlock, runnable } from './runner-support.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const site = useSiteUnderTest();

/** Requests the runner makes: its code, its workers, Pyodide and the fixtures. */
const RUNNER_REQUEST = /\/assets\/(runner[./]|pyodide-|fixtures\/)/;

/** The page gets site data whose runner stops a run after `ms` (the book's is 10 s). */
async function withTimeLimit(page: Page, ms: number): Promise<void> {
  await page.route(/\/assets\/site\/en\.[0-9a-f]+\.json$/, async (route) => {
    const response = await route.fetch();
    const data = (await response.json()) as { runner: { timeLimitMs: number } };
    data.runner.timeLimitMs = ms;
    await route.fulfill({ response, json: data });
  });
}

describe('running examples in the page', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  const requests: string[] = [];

  beforeAll(async () => {
    ({ context, page, problems } = await openPage(site, { viewport: { width: 1280, height: 900 } }));
    context.setDefaultTimeout(20_000);
    page.on('request', (request) => requests.push(request.url()));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('fetches nothing of the runtime before a sign of intent; pointing at Run starts loading it', async () => {
    await gotoHydrated(page, site.url('dictionary/'));
    const block = runnable(page, 'python').first();
    await block.locator('.code-pre').hover();
    await block.locator('.code-pre').focus();
    // The content behaviour chunk loads on hover; give it the time to (not) pull the runner in.
    await page.waitForLoadState('networkidle');
    expect(requests.filter((url) => RUNNER_REQUEST.test(url))).toEqual([]);
    await block.locator('button[data-code-action=run]').hover();
    await expect
      .poll(() => requests.some((url) => /\/assets\/pyodide-[\d.]+\/pyodide\.asm\.wasm$/.test(url)), {
        timeout: 30_000,
      })
      .toBe(true);
  });

  it(
    "runs Python examples of five chapters and shows the book's output, marked as matching it",
    async () => {
      for (const slug of [
        'dictionary',
        'hello-world',
        'for-and-while-statement',
        'json-module',
        'try-except-statements',
      ]) {
        await gotoHydrated(page, site.url(`${slug}/`));
        const block = runnable(page, 'python').first();
        const expected = await block
          .locator(':scope > .code-output:not(.code-run-output) .code-output-pre')
          .textContent();
        const result = await runBlock(block);
        expect(result.verdict, `${slug}: ${result.output}`).toBe('matches');
        if (expected !== null) expect(normalizeOutput(result.output)).toBe(normalizeOutput(expected));
      }
      expect(requests.some((url) => /\/assets\/pyodide-[\d.]+\/pyodide\.asm\.wasm$/.test(url))).toBe(true);
    },
    LONG,
  );

  it(
    'runs both sides of a comparison: JavaScript in the sandbox prints what Node prints',
    async () => {
      await gotoHydrated(page, site.url('dictionary/'));
      const compare = page
        .locator('.markdown .compare:has(.code-run[data-run-lang="javascript"]):has(.code-run[data-run-lang="python"])')
        .first();
      for (const lang of ['javascript', 'python']) {
        const block = compare.locator(`.code-block:has(.code-run[data-run-lang="${lang}"])`);
        const result = await runBlock(block);
        expect(result.verdict, `${lang}: ${result.output}`).toBe('matches');
      }
    },
    LONG,
  );

  it(
    'runs an example that reads a fixture from book/fixtures',
    async () => {
      await gotoHydrated(page, site.url('task-top-50-in-github/'));
      const block = page
        .locator('.markdown .code-block:has(.code-run[data-run-lang="python"])', {
          hasText: 'task-top-50-in-github-response.json',
        })
        .first();
      const result = await runBlock(block);
      expect(result.verdict, result.output).toBe('matches');
    },
    LONG,
  );

  it(
    'an edited example runs, Ctrl+Enter runs it, and the edit survives a client-side trip away and back',
    async () => {
      await gotoHydrated(page, site.url('dictionary/'));
      const block = runnable(page, 'python').nth(1);
      await block.locator('button[data-code-action=edit]').click();
      const editor = block.locator('.code-editor .cm-content');
      await expect.poll(() => editor.evaluate((e) => e === document.activeElement)).toBe(true);
      await editor.fill('names = {"ada": 1815}\nprint(sorted(names) + ["edited"])');
      await editor.press('Control+Enter');
      await block.locator('.code-run-output[data-run="1"]:not([data-verdict="pending"])').waitFor({ timeout: 240_000 });
      expect(await block.locator('.code-run-output .code-output-pre').textContent()).toBe("['ada', 'edited']\n");
      // An edited program prints something else than the book: marked so.
      expect(await block.locator('.code-run-output').getAttribute('data-verdict')).toBe('differs');

      // Away by the sidebar (client-side) and back with the browser's Back button.
      await page.locator('.sidebar a[href$="/set/"]').first().click();
      await page.waitForURL(/\/set\/$/);
      await page.goBack();
      await page.waitForURL(/\/dictionary\/$/);
      const restored = runnable(page, 'python').nth(1).locator('.code-editor .cm-content');
      await expect.poll(() => restored.textContent()).toContain('"edited"');

      // Reset puts the book's code back and forgets the edit.
      await runnable(page, 'python').nth(1).locator('button[data-code-action=reset]').click();
      expect(await runnable(page, 'python').nth(1).locator('.code-editor .cm-content').count()).toBe(0);
      // Nothing of the edit is kept in this browser any more.
      const kept = await page.evaluate(() =>
        Object.keys(localStorage)
          .map((key) => localStorage.getItem(key))
          .join('\n'),
      );
      expect(kept).not.toContain('edited');
    },
    LONG,
  );

  it(
    'Stop ends an endless loop; the next run works, whatever the state the stopped one left',
    async () => {
      await gotoHydrated(page, site.url('dictionary/'));
      const block = runnable(page, 'python').first();
      await block.locator('button[data-code-action=edit]').click();
      await block.locator('.code-editor .cm-content').fill('while True:\n    pass');
      await block.locator('button[data-code-action=run]').click();
      // Running once the program runs (a cold Python start on a busy machine may take minutes).
      await block.locator('.code-run-status', { hasText: /Running/ }).waitFor({ timeout: 240_000 });
      // The page stays responsive while Python spins in its sandbox.
      expect(await page.evaluate(() => 1 + 1)).toBe(2);
      await block.locator('button[data-code-action=stop]').click();
      await block.locator('.code-run-status', { hasText: 'Stopped' }).waitFor();
      expect(await block.locator('.code-run-output').getAttribute('data-verdict')).toBe('stopped');
      await block.locator('.code-editor .cm-content').fill('print("after the loop")');
      const result = await runBlock(block);
      expect(result.output).toBe('after the loop\n');
      await block.locator('button[data-code-action=reset]').click();
    },
    LONG,
  );

  it(
    "a stopped run's time limit does not stop the next run",
    async () => {
      // Each run has a limit of 8 s. The first run is stopped 3 s into it; the next one sleeps 6 s, so
      // it ends within its own limit but after the moment the stopped run's limit would have ended it.
      const fresh = await openPage(site);
      fresh.context.setDefaultTimeout(60_000);
      try {
        await withTimeLimit(fresh.page, 8000);
        await gotoHydrated(fresh.page, site.url('dictionary/'));
        const block = runnable(fresh.page, 'javascript').first();
        await block.locator('button[data-code-action=edit]').click();
        await block
          .locator('.code-editor .cm-content')
          .fill('await new Promise((r) => setTimeout(r, 3000));\nconsole.log("spinning");\nfor (;;) {}');
        await block.locator('button[data-code-action=run]').click();
        // Printed 3 s after the program (and its timer) started, as it begins to spin.
        await block.locator('.code-run-output .code-output-pre', { hasText: 'spinning' }).waitFor({ timeout: 60_000 });
        const spinning = Date.now();
        await block.locator('button[data-code-action=stop]').click();
        await block.locator('.code-run-status', { hasText: 'Stopped.' }).waitFor();
        await block
          .locator('.code-editor .cm-content')
          .fill('await new Promise((r) => setTimeout(r, 6000));\nconsole.log("alive")');
        const result = await runBlock(block);
        // The next run outlived the stopped run's limit (at most 8 s after it started, 3 s before `spinning`).
        expect(Date.now() - spinning).toBeGreaterThan(6000);
        expect(result.output).toBe('alive\n');
        // The block shows the book's output, and "alive" is not it: the run ended normally and differs.
        expect(result.verdict).toBe('differs');
      } finally {
        await fresh.context.close();
      }
    },
    LONG,
  );

  it(
    'JavaScript runs in a sandbox: no document, no storage, no cookies of the site',
    async () => {
      await context.addCookies([{ name: 'secret', value: 'page-cookie', url: site.url() }]);
      await gotoHydrated(page, site.url('dictionary/'));
      await page.evaluate(() => localStorage.setItem('pybook-secret', 'stored'));
      const block = runnable(page, 'javascript').first();
      await block.locator('button[data-code-action=edit]').click();
      await block
        .locator('.code-editor .cm-content')
        .fill(
          [
            'console.log(typeof document, typeof window, typeof localStorage, typeof parent);',
            'try { indexedDB.open("x"); console.log("indexedDB open"); } catch (e) { console.log("indexedDB", e.name); }',
            'try { await caches.keys(); console.log("caches open"); } catch (e) { console.log("caches", e.name); }',
            'console.log(String(self.location.origin));',
            'try { await fetch(location.href); console.log("fetched"); } catch (e) { console.log("fetch", e.name); }',
          ].join('\n'),
        );
      const result = await runBlock(block);
      const lines = result.output.trim().split('\n');
      expect(lines[0]).toBe('undefined undefined undefined undefined');
      expect(lines[1]).toBe('indexedDB SecurityError');
      expect(lines[2]).toMatch(/^caches (SecurityError|ReferenceError|TypeError)$/);
      expect(lines[3]).toBe('null');
      expect(result.output).not.toContain('page-cookie');
      expect(result.output).not.toContain('stored');
      await block.locator('button[data-code-action=reset]').click();
    },
    LONG,
  );

  it(
    'a run that passes the time limit of book.config.json is stopped',
    async () => {
      // The site data says how long a run may take (10 s for the book): a page given 1.5 s must stop at 1.5 s.
      const fresh = await openPage(site);
      fresh.context.setDefaultTimeout(60_000);
      try {
        await withTimeLimit(fresh.page, 1500);
        await gotoHydrated(fresh.page, site.url('dictionary/'));
        const block = runnable(fresh.page, 'javascript').first();
        await block.locator('button[data-code-action=edit]').click();
        await block.locator('.code-editor .cm-content').fill('for (;;) {}');
        await block.locator('button[data-code-action=run]').click();
        await block.locator('.code-run-status', { hasText: 'Stopped after 1.5 s' }).waitFor({ timeout: 30_000 });
        expect(await block.locator('.code-run-output').getAttribute('data-verdict')).toBe('timed-out');
        await block.locator('.code-editor .cm-content').fill('console.log("next")');
        expect((await runBlock(block)).output).toBe('next\n');
      } finally {
        await fresh.context.close();
      }
    },
    LONG,
  );

  it('offers Run exactly for the examples the browser check passed; the others say why on focus', async () => {
    const config = loadConfig(path.join(root, 'book.config.json'));
    const record = JSON.parse(readFileSync(path.join(root, 'book', BROWSER_CHECK_FILE), 'utf8')) as BrowserCheckRecord;
    const passed = new Set(record.passed);
    const book = loadBook(config);
    for (const [locale, slug] of [
      ['en', 'create-and-import-of-modules'],
      ['zh-cn', 'async-and-await'],
      ['en', 'testing-with-pytest'],
    ] as const) {
      const localeInfo = book.locales.find((l) => l.code === locale)!;
      const chapter = book.chapters[locale].find((c) => c.slug === slug)!;
      const compiled = compileChapter(chapter.source, chapter.file, {
        slug,
        basePath: config.basePath,
        localePaths: [],
        routeFor: (s) => pageRoute(config.basePath, localeInfo, s),
      });
      const expected = compiled.examples.filter((e) => isOfferedToRun(e) && passed.has(exampleKey(e))).length;
      const marked = compiled.examples.filter(
        (e) => (e.lang === 'python' || e.lang === 'javascript') && !(isOfferedToRun(e) && passed.has(exampleKey(e))),
      ).length;
      await gotoHydrated(page, site.url(`${locale === 'en' ? '' : 'zh-cn/'}${slug}/`));
      // The starter's Run (beside its Check) is the exercise's, counted by the exercise tests; its
      // answer is an example like the others.
      const examplesRun = page.locator(
        '.markdown .code-block:not([data-exercise="starter"]) button[data-code-action=run]',
      );
      expect(await examplesRun.count(), `${locale}/${slug}`).toBe(expected);
      expect(await page.locator('.markdown .code-run-note').count(), `${locale}/${slug}`).toBe(marked);
      expect(marked).toBeGreaterThan(0);
    }
    // The reason shows when the note has focus (the page is zh-cn's async chapter or pytest's here).
    const note = page.locator('.markdown .code-run-note').first();
    await note.focus();
    const reason = await note.getAttribute('data-reason');
    expect(reason?.length).toBeGreaterThan(5);
    expect(await note.evaluate((e) => getComputedStyle(e, '::after').content)).toBe(JSON.stringify(reason));
  });

  it(
    'runs examples on the Chinese pages too, with Chinese labels',
    async () => {
      await gotoHydrated(page, site.url('zh-cn/dictionary/'));
      const block = runnable(page, 'python').first();
      expect(await block.locator('button[data-code-action=run]').textContent()).toContain('运行');
      const result = await runBlock(block);
      expect(result.verdict).toBe('matches');
      expect(result.status).toContain('与书中一致');
      expect(problems).toEqual([]);
    },
    LONG,
  );
});
