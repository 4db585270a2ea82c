import type { Locator, Page } from 'playwright-core';

/**
 * What the tests that run the book's examples in the page share (runner, runner-spare,
 * runner-hardened, offline, learner-work, exercise-check): the blocks that offer Run, and Run,
 * Edit and Check driven the way a reader does, each waiting for a condition, never for a time.
 */

/** A cold Pyodide start on a machine shared by many can take minutes: the runs wait for conditions, this bounds them. */
export const LONG = 300_000;
/** The bound of one run's wait (the first Python run loads Pyodide, 13 MB, and compiles it). */
export const RUN_WAIT = 240_000;

/** The example blocks of a page that offer Run in `lang`, in page order (exercises' starters left out). */
export const runnable = (page: Page, lang: 'python' | 'javascript') =>
  page.locator(`.markdown .code-block:not([data-exercise="starter"]):has(.code-run[data-run-lang="${lang}"])`);

/** The exercises' starter blocks of a page: the code a reader edits and checks. */
export const starter = (page: Page) => page.locator('.markdown .code-block[data-exercise="starter"]');

/** The editor of a block (present while the block is being edited). */
export const editorText = (block: Locator) => block.locator('.code-editor .cm-content');

/**
 * Opens the block's editor (unless it is open) and puts `code` in it. It first waits until the page
 * has put back the code the reader edited here before: that turns Edit into Reset, and a click
 * during it would land on Reset.
 */
export async function editTo(block: Locator, code: string, timeout = RUN_WAIT): Promise<void> {
  await block.page().locator('html[data-reader-state]').waitFor({ state: 'attached', timeout });
  if (!(await editorText(block).count())) await block.locator('button[data-code-action=edit]').click();
  // The editor's module loads on the first Edit: on a busy machine that can take a while.
  await editorText(block).waitFor({ timeout });
  await editorText(block).fill(code);
}

/** What one run left in its block. */
export interface Ran {
  verdict: string | null;
  output: string;
  status: string;
  hints: string;
  /** From the click on Run to the verdict, test driver included. */
  ms: number;
}

/** Clicks Run and waits until this run (not an earlier one) has ended. */
export async function runBlock(block: Locator, timeout = RUN_WAIT): Promise<Ran> {
  const panel = block.locator('.code-run-output');
  const runs = (await panel.count()) ? Number(await panel.getAttribute('data-run')) : 0;
  const started = Date.now();
  await block.locator('button[data-code-action=run]').click();
  await block.locator(`.code-run-output[data-run="${runs + 1}"]:not([data-verdict="pending"])`).waitFor({ timeout });
  return {
    ms: Date.now() - started,
    verdict: await panel.getAttribute('data-verdict'),
    output: (await panel.locator('.code-output-pre').textContent()) ?? '',
    status: (await block.locator('.code-run-status').textContent()) ?? '',
    hints: (await panel.locator('.code-run-hint').allTextContents()).join(' '),
  };
}

/** Puts `code` in the block's editor, runs it and waits until the run has ended. */
export async function runCode(block: Locator, code: string, timeout = RUN_WAIT): Promise<Ran> {
  await editTo(block, code, timeout);
  return runBlock(block, timeout);
}

/**
 * Clicks Check and waits for the results that follow it: the last results are cleared first, so
 * only the new ones count, and the check has ended once the button says Check again.
 */
export async function checkExercise(
  block: Locator,
  timeout = RUN_WAIT,
): Promise<{ summary: string; passed: string | null }> {
  await block.locator('.exercise-results').evaluate((region) => region.replaceChildren());
  await block.locator('button[data-code-action=check]').click();
  const summary = block.locator('.exercise-results .exercise-summary');
  await summary.waitFor({ state: 'attached', timeout });
  await block.locator('button[data-code-action=check]').waitFor({ timeout });
  return { summary: (await summary.textContent()) ?? '', passed: await summary.getAttribute('data-passed') };
}
