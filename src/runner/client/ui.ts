/**
 * Running, checking and editing examples in the page (a lazy entry, loaded on the reader's first
 * sign of intent: pointing at or focusing Run, Check or Edit; or when the page has code of the
 * reader's to put back). The Run bar is server-rendered by CodeBlock for examples that passed in
 * the reader's runtimes (`pybook check`); this module wires up its buttons:
 * - Run (run-example.ts) and an exercise's Check (check-exercise.ts), both through
 *   one run controller (run-controller.ts): Stop, the time limit, what the status line says;
 * - Edit and Reset (editing.ts), with the reader's code kept in this browser;
 * - the outcome of each Check, kept as the reader's progress (progress/client/store.ts).
 */
import type { RunnerModule } from '../../client/core/lazy-contracts.js';
import type { SiteData } from '../../shared/model/page.js';
import { pageSiteData } from '../../client/core/page-site-data.js';
import { checkBlock } from './check-exercise.js';
import { LearnerStore } from '../../progress/client/store.js';
import { chapterOf, langOf } from './block.js';
import { showDroppedNotice } from './dropped-notice.js';
import { edit, loadEditor, reset, restoreEdits as restore } from './editing.js';
import { editorIn } from './editors.js';
import { configureRuns, isRunning, prepareRuntime, stopRun } from './run-controller.js';
import { runExample } from './run-example.js';
import { adoptRunnerStyles } from './runner-styles.js';

adoptRunnerStyles();

/** The site data and the reader's store, set before any action runs (the data is in the HTTP cache by then). */
let loaded: { site: SiteData; store: LearnerStore } | undefined;

async function setUp(): Promise<{ site: SiteData; store: LearnerStore }> {
  if (!loaded) {
    const site = await pageSiteData();
    if (!site.runner) throw new Error('this site has no example runner');
    configureRuns(site.runner, site.strings.runner);
    loaded = { site, store: new LearnerStore(site.basePath, site.locale.code) };
  }
  return loaded;
}

/** The route of the chapter on installing packages (pip), in the page's language. */
const pipChapter = (site: SiteData) => Object.keys(site.routes ?? {}).find((route) => /\/pip\/$/.test(route));

/** Starts loading the block's runtime (a sign of intent), so that the run starts sooner. */
export async function prepareRunner(button: HTMLButtonElement): Promise<void> {
  const { site } = await setUp();
  const block = button.closest<HTMLElement>('.code-block');
  if (!block || !site.runner || !block.querySelector('.code-run[data-run-lang]')) return;
  if (button.dataset.codeAction === 'edit') void loadEditor().catch(() => {}); // a press of Edit says what failed
  prepareRuntime(langOf(block));
}

/** An exercise's Check: runs its tests, and keeps the outcome as the reader's progress. */
function check(block: HTMLElement, button: HTMLButtonElement, site: SiteData, store: LearnerStore): void {
  const t = site.strings.runner;
  const goToLine = (line: number) => {
    const open = editorIn(block);
    if (open) open.goToLine(line);
    else void edit(block, store, t).then(() => editorIn(block)?.goToLine(line));
  };
  checkBlock(block, button, site.strings, goToLine, (passed) => {
    const slug = chapterOf(block);
    const tests = slug ? site.exercises?.[slug] : undefined;
    if (slug && tests) store.recordCheck(slug, tests, passed);
  });
}

/** Puts back the examples the reader edited on this page (on any earlier visit), and says which no longer fit. */
export async function restoreEdits(root: ParentNode = document): Promise<void> {
  const { site, store } = await setUp();
  const dropped = await restore(root, store, site.strings.runner);
  const article = document.querySelector<HTMLElement>('[data-chapter]');
  const slug = article?.dataset.chapter;
  if (article && slug && (dropped || store.droppedOf(slug).length))
    showDroppedNotice(article, slug, store, site.strings, site.locale.htmlLang);
}

/**
 * A click on Run, Stop, Check, Edit or Reset (dispatched by content-behaviour.ts). `action` is what
 * the button said when it was pressed: loading this module and the site data takes time, in which
 * the page may turn the button into another (Edit into Reset, when it puts the reader's code back).
 */
export async function onRunnerButton(button: HTMLButtonElement, action: string): Promise<void> {
  const { site, store } = await setUp();
  const block = button.closest<HTMLElement>('.code-block');
  if (!block) return;
  const t = site.strings.runner;
  if (action === 'stop') stopRun(block);
  else if (isRunning(block))
    return; // one run at a time per block: its other button waits
  else if (action === 'run') runExample(block, button, t, pipChapter(site));
  else if (action === 'check') check(block, button, site, store);
  else if (action === 'edit') {
    prepareRuntime(langOf(block));
    await edit(block, store, t);
  } else if (action === 'reset') reset(block, store, t);
}

// The shape client/core/content-behaviour.ts expects of this module (it loads it by name, without importing it).
({ prepareRunner, restoreEdits, onRunnerButton }) satisfies RunnerModule;
