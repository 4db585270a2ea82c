import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe-support.js';
import { gotoHydrated, openPage, siteDataOf, useSiteUnderTest, waitForHydration } from './client-support.js';
import { LONG, checkExercise, editTo, editorText, starter } from './runner-support.js';

/**
 * The reader's work belongs to the reader: kept in their browser across reloads, tabs and visits,
 * shown as progress, exportable to another browser, and cleared only when they ask.
 */
const site = useSiteUnderTest();

const firstPython = (page: Page) =>
  page.locator('.markdown .code-block:not([data-exercise]):has(.code-run[data-run-lang="python"])').first();

/** Waits until the page has shown what the reader left in this browser (their code, their progress). */
const readerStateShown = (page: Page, chapter: string) =>
  page.locator(`html[data-reader-state="${chapter}"]`).waitFor({ state: 'attached' });

/** The first chapter whose exercise a reader can Check in the page, and the code of its answer. */
async function checkableExercise(page: Page): Promise<{ slug: string; answer: string }> {
  await gotoHydrated(page, site.url('dictionary/'));
  const exercises = (await siteDataOf(page)).exercises ?? {};
  const slug = Object.keys(exercises).sort()[0];
  expect(slug, 'the test site has a checkable exercise (run `npx pybook check`)').toBeDefined();
  await gotoHydrated(page, site.url(`${slug}/`));
  await readerStateShown(page, slug);
  const answer = await page
    .locator('details.answer .code-block')
    .first()
    .evaluate((block) => (block.querySelector('.code-pre code')?.textContent ?? '').replace(/\n$/, ''));
  return { slug, answer };
}

/** Clicks Check and waits for this check's results: whether they all passed. */
const check = async (block: Locator) => (await checkExercise(block, LONG)).passed;

describe("the reader's code is kept in their browser", () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    ({ context, page, problems } = await openPage(site, { viewport: { width: 1280, height: 900 } }));
    context.setDefaultTimeout(30_000);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('an edit is there again after a reload, in a new tab, and on a later visit; not in another browser', async () => {
    await gotoHydrated(page, site.url('dictionary/'));
    await editTo(firstPython(page), 'print("kept for later")');
    await page.reload();
    await editorText(firstPython(page)).waitFor();
    expect(await editorText(firstPython(page)).textContent()).toBe('print("kept for later")');
    expect(await firstPython(page).locator('button[data-code-action=reset]').count()).toBe(1);
    // A new tab, and a visit after every tab was closed: the same browser keeps it.
    const tab = await context.newPage();
    await gotoHydrated(tab, site.url('dictionary/'));
    await editorText(firstPython(tab)).waitFor();
    expect(await editorText(firstPython(tab)).textContent()).toBe('print("kept for later")');
    await tab.close();
    // Another browser (a fresh profile) has its own data: nothing of this one.
    const other = await openPage(site);
    await gotoHydrated(other.page, site.url('dictionary/'));
    await readerStateShown(other.page, 'dictionary');
    expect(await editorText(firstPython(other.page)).count()).toBe(0);
    await other.context.close();
    expect(problems).toEqual([]);
  });

  it("Reset shows the book's code and forgets the edit for good", async () => {
    await gotoHydrated(page, site.url('dictionary/'));
    const block = firstPython(page);
    await editorText(block).waitFor();
    await block.locator('button[data-code-action=reset]').click();
    expect(await editorText(block).count()).toBe(0);
    await page.reload();
    await readerStateShown(page, 'dictionary');
    expect(await editorText(firstPython(page)).count()).toBe(0);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('/code/')))).toEqual([]);
  });

  it("Reset offers Undo, which puts the reader's code back in the editor and keeps it again", async () => {
    await gotoHydrated(page, site.url('dictionary/'));
    await readerStateShown(page, 'dictionary');
    const block = firstPython(page);
    await editTo(block, 'print("worth keeping")');
    await block.locator('button[data-code-action=reset]').click();
    expect(await editorText(block).count()).toBe(0);
    const undo = block.locator('.code-run-status button.code-run-undo');
    expect(await undo.getAttribute('aria-label')).toMatch(/Undo Reset/);
    await undo.click();
    await editorText(block).waitFor();
    expect(await editorText(block).textContent()).toBe('print("worth keeping")');
    expect(await undo.count()).toBe(0);
    await page.reload();
    await editorText(firstPython(page)).waitFor();
    expect(await editorText(firstPython(page)).textContent()).toBe('print("worth keeping")');
    // Reset again, then Edit: the Undo goes (Edit starts from the book's code), and nothing is kept.
    await firstPython(page).locator('button[data-code-action=reset]').click();
    await firstPython(page).locator('button[data-code-action=edit]').click();
    await editorText(firstPython(page)).waitFor();
    expect(await firstPython(page).locator('.code-run-undo').count()).toBe(0);
    await firstPython(page).locator('button[data-code-action=reset]').click();
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('/code/')))).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("Edit pressed while the page is still putting the reader's code back opens their code, and it stays kept", async () => {
    await gotoHydrated(page, site.url('dictionary/'));
    await readerStateShown(page, 'dictionary');
    await editTo(firstPython(page), 'print("pressed early")');
    // The runner's chunk is held, so the page cannot put the code back before the press.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = /\/assets\/runner\.[A-Z0-9]+\.js$/;
    await page.route(held, async (route) => {
      await released;
      await route.continue();
    });
    await page.reload();
    await waitForHydration(page);
    const edit = firstPython(page).locator('button[data-code-action=edit]');
    await edit.click();
    release();
    await readerStateShown(page, 'dictionary');
    await editorText(firstPython(page)).waitFor();
    expect(await editorText(firstPython(page)).textContent()).toBe('print("pressed early")');
    await page.unroute(held);
    await page.reload();
    await editorText(firstPython(page)).waitFor();
    expect(await editorText(firstPython(page)).textContent()).toBe('print("pressed early")');
    await firstPython(page).locator('button[data-code-action=reset]').click();
  });

  it('an edit of an example the other language writes differently stays with its language: no notice there, still there on return', async () => {
    // The first runnable example whose code differs between the two editions of a chapter.
    const codes = async (url: string) => {
      await gotoHydrated(page, url);
      return page
        .locator('.markdown .code-block:has(.code-run[data-run-lang])')
        .evaluateAll((blocks) => blocks.map((b) => b.querySelector('.code-pre code')?.textContent ?? ''));
    };
    const zh = await codes(site.url('zh-cn/how-to-use-the-book/'));
    const en = await codes(site.url('how-to-use-the-book/'));
    const index = en.findIndex((code, i) => zh[i] !== undefined && zh[i] !== code);
    expect(index, 'the chapter has an example written differently in Chinese').toBeGreaterThanOrEqual(0);
    const block = page.locator('.markdown .code-block:has(.code-run[data-run-lang])').nth(index);
    await editTo(block, 'print("my English edit")');
    await gotoHydrated(page, site.url('zh-cn/how-to-use-the-book/'));
    await readerStateShown(page, 'how-to-use-the-book');
    expect(await page.locator('.learner-dropped').count()).toBe(0);
    await gotoHydrated(page, site.url('how-to-use-the-book/'));
    const again = page.locator('.markdown .code-block:has(.code-run[data-run-lang])').nth(index);
    await editorText(again).waitFor();
    expect(await editorText(again).textContent()).toBe('print("my English edit")');
    expect(await page.locator('.learner-dropped').count()).toBe(0);
  });

  it('an edit whose example the book has changed since is not put in another example: it is shown aside, to copy, until dismissed', async () => {
    await gotoHydrated(page, site.url('dictionary/'));
    // As if the reader had edited an example whose code the book has since rewritten.
    await page.evaluate(() => {
      const key = `pybook${location.pathname.replace(/dictionary\/$/, '')}code/dictionary`;
      localStorage.setItem(
        key,
        JSON.stringify({ oldexample: { code: 'print("my old version")', at: Date.now() - 1000, locale: 'en' } }),
      );
    });
    await page.reload();
    const notice = page.locator('.learner-dropped');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('The book has changed an example you edited');
    await notice.locator('summary').click();
    expect(await notice.locator('pre').textContent()).toBe('print("my old version")');
    expect(await page.locator('.code-editor').count()).toBe(0);
    await notice.locator('button').click();
    await page.reload();
    await readerStateShown(page, 'dictionary');
    expect(await page.locator('.learner-dropped').count()).toBe(0);
  });
});

describe("the reader's progress", () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await openPage(site, { viewport: { width: 1280, height: 900 }, acceptDownloads: true }));
    context.setDefaultTimeout(30_000);
  });
  afterAll(async () => {
    await context?.close();
  });

  it(
    'a solved exercise is marked in the sidebar and at the top of its chapter, in both languages, and unsolved again when a Check fails',
    async () => {
      const { slug, answer } = await checkableExercise(page);
      const block = starter(page);
      expect(await check(block)).toBe('false'); // the starter fails: not solved, and now checked
      await page.locator('.learner-status[data-solved="false"]').waitFor();
      await editTo(block, answer);
      expect(await check(block)).toBe('true');
      await page.locator('.learner-status[data-solved="true"]').waitFor();
      const link = page.locator(`.sidebar a.sidebar-link[href$="/${slug}/"]`);
      await link.and(page.locator('[data-solved]')).waitFor();
      expect(await link.getAttribute('aria-description')).toBe('exercise solved');
      // The same exercise in Chinese: solved there too.
      await gotoHydrated(page, site.url(`zh-cn/${slug}/`));
      await page.locator('.learner-status[data-solved="true"]').waitFor();
      await page.locator(`.sidebar a.sidebar-link[href$="/zh-cn/${slug}/"][data-solved]`).waitFor();
      // A later Check that fails takes it back (once the page has put the kept answer back in the
      // editor: an Edit pressed before that would race it).
      await gotoHydrated(page, site.url(`${slug}/`));
      await readerStateShown(page, slug);
      await editTo(starter(page), `${answer}\nraise SystemExit("broken on purpose")`);
      expect(await check(starter(page))).toBe('false');
      await page.locator('.learner-status[data-solved="false"]').waitFor();
      expect(await page.locator('a.sidebar-link[data-solved]').count()).toBe(0);
      // Solved again, for the home page below.
      await editTo(starter(page), answer);
      expect(await check(starter(page))).toBe('true');
    },
    LONG * 2,
  );

  it('the home page counts solved exercises per part and in all, and continues where the reader left off', async () => {
    await gotoHydrated(page, site.url(''));
    const total = Object.keys((await siteDataOf(page)).exercises ?? {}).length;
    const summary = page.locator('.learner-summary');
    await summary.waitFor();
    expect(await summary.textContent()).toBe(`1 of ${total} exercise${total === 1 ? '' : 's'} solved`);
    expect(
      (await page.locator('.learner-part').allTextContents()).some((line) => /^1 of \d+ exercises? solved$/.test(line)),
    ).toBe(true);
    // The last chapter read was solved: Continue goes to the chapter after it.
    const continueLink = page.locator('.learner-continue');
    expect(await continueLink.textContent()).toMatch(/^Continue: /);
  });

  it('exports to a file that a fresh browser imports: its code and progress are then there', async () => {
    await gotoHydrated(page, site.url(''));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export to a file' }).click(),
    ]);
    const file = path.join(os.tmpdir(), `pybook-progress-${process.pid}.json`);
    await download.saveAs(file);
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { format: string; exercises: object; code: object };
    expect(exported.format).toBe('pybook-learner-data');
    expect(Object.keys(exported.exercises).length).toBeGreaterThan(0);

    const fresh = await openPage(site, { viewport: { width: 1280, height: 900 } });
    await gotoHydrated(fresh.page, site.url('zh-cn/'));
    await fresh.page.locator('.learner-summary').waitFor();
    expect(await fresh.page.locator('.learner-summary').textContent()).toMatch(/^已完成 0 \//);
    await fresh.page.locator('[data-learner-home] input[type=file]').setInputFiles(file);
    await fresh.page.locator('.learner-message:not(:empty)').waitFor();
    expect(await fresh.page.locator('.learner-message').textContent()).toMatch(
      /^已导入 \d+ 个编辑过的示例和 \d+ 个练习结果/,
    );
    expect(await fresh.page.locator('.learner-summary').textContent()).toMatch(/^已完成 1 \//);
    // A file that is not one is refused, saying why.
    await fresh.page.locator('[data-learner-home] input[type=file]').setInputFiles({
      name: 'not-progress.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"format":"pybook-learner-data","version":1,"code":{"../x":{}}}'),
    });
    await fresh.page.locator('.learner-message', { hasText: '无法导入' }).waitFor();
    expect(await fresh.page.locator('.learner-message').textContent()).toContain('code.');
    await fresh.context.close();
  });

  it('"Reset all my code" forgets the code and keeps the results; "Clear" forgets everything', async () => {
    await gotoHydrated(page, site.url(''));
    page.on('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Reset all my code' }).click();
    await page.locator('.learner-message', { hasText: "Every example shows the book's code again." }).waitFor();
    const keys = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('pybook/')));
    expect((await keys()).filter((k) => k.includes('/code/'))).toEqual([]);
    expect((await keys()).some((k) => k.endsWith('/exercises'))).toBe(true);
    await page.getByRole('button', { name: 'Clear my progress and code' }).click();
    await page.locator('.learner-message', { hasText: 'cleared' }).waitFor();
    expect(await keys()).toEqual([]);
    expect(await page.locator('.learner-summary').textContent()).toMatch(/^0 of /);
  });
});

describe("an exercise's runs", () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await openPage(site, { viewport: { width: 1280, height: 900 } }));
    context.setDefaultTimeout(30_000);
  });
  afterAll(async () => {
    await context?.close();
  });

  it(
    "has Run beside Check and labelled tests; a failure raised in the reader's code names its line, and Go to line puts the cursor there",
    async () => {
      await checkableExercise(page);
      const block = starter(page);
      expect(await block.locator('.code-run > button').allTextContents()).toEqual(['Check', 'Run', 'Edit']);
      expect(await page.locator('.code-block[data-exercise="tests"] .code-block-title').first().textContent()).toBe(
        'Tests',
      );
      await editTo(block, 'print("line one")\nprint("line two")\nundefined_name()\n');
      await block.locator('button.exercise-run-button').click();
      await block.locator('.code-run-output:not([data-verdict="pending"])').waitFor({ timeout: LONG });
      expect(await block.locator('.code-run-output .code-output-pre').textContent()).toMatch(
        /^line one\nline two\nTraceback[\s\S]*line 3[\s\S]*NameError/,
      );
      expect(await check(block)).toBe('false');
      const line = block.locator('.exercise-code-line').first();
      expect(await line.textContent()).toMatch(/^\(your code, line 3\)/);
      await line.locator('button').click();
      const cursorLine = await page.evaluate(() => {
        const selection = document.getSelection();
        return selection?.anchorNode?.parentElement?.closest('.cm-line')?.textContent;
      });
      expect(cursorLine).toBe('undefined_name()');
    },
    LONG,
  );

  it(
    "the reader's output has a height limit with Show all, is no landmark, and the page stays accessible with the editor open after two runs",
    async () => {
      await gotoHydrated(page, site.url('dictionary/'));
      const block = firstPython(page);
      await editTo(block, 'for i in range(200):\n    print("line", i)');
      for (const run of [1, 2]) {
        await block.locator('button[data-code-action=run]').click();
        await block
          .locator(`.code-run-output[data-run="${run}"]:not([data-verdict="pending"])`)
          .waitFor({ timeout: LONG });
      }
      const pre = block.locator('.code-run-output .code-output-pre');
      const [shown, full] = await pre.evaluate((element) => [element.clientHeight, element.scrollHeight]);
      expect(shown).toBeLessThan(full);
      const showAll = block.locator('.code-run-more button').first();
      expect(await showAll.textContent()).toBe('Show all output');
      await showAll.click();
      expect(await pre.evaluate((element) => element.scrollHeight - element.clientHeight)).toBeLessThanOrEqual(1);
      expect(await showAll.getAttribute('aria-expanded')).toBe('true');
      expect(await showAll.textContent()).toBe('Show less');
      expect(await page.locator('.code-run-output[role], .code-run-output[aria-label]').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
    },
    LONG,
  );
});
