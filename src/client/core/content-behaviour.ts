/**
 * Behaviour of the server-rendered chapter content: code block copy and word wrap, and tabs.
 * A lazily loaded chunk: content-events.ts listens (one delegated listener each, so the content
 * HTML never has to be re-created as React elements) and loads this on the first interaction.
 */

import type { loadLazyModule } from './lazy-modules.js';
import type { ProgressModule, RunnerModule } from './lazy-contracts.js';
import type { SiteData } from '../../shared/model/page.js';
import { codeKey, droppedKey, exercisesKey, lastChapterKey, LEARNER_CHANGE } from '../../progress/shared/keys.js';
import { pageSiteData } from './page-site-data.js';
import { copyBySelection } from './copy-by-selection.js';

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API unavailable (insecure context, permissions): the textarea fallback works everywhere.
    copyBySelection(text);
  }
}

/** The code of a block as the author wrote it: the line spans joined, no line numbers or buttons. */
export function codeOf(block: Element): string {
  const code = block.querySelector('.code-pre code');
  return (code?.textContent ?? '').replace(/\n$/, '');
}

type Runner = RunnerModule;

/** The example runner (client/runner/ui.ts): a lazy entry of its own, loaded on the first Run or Edit. */
let loadedRunner: Promise<Runner> | undefined;
function runner(load: typeof loadLazyModule): Promise<Runner> {
  loadedRunner ??= pageSiteData().then((site) => {
    const asset = site.lazyModules.runner;
    if (!asset) throw new Error('this site has no example runner');
    return load<Runner>(asset);
  });
  loadedRunner.catch(() => {
    loadedRunner = undefined;
  }); // the next click tries again
  return loadedRunner;
}

const RUNNER_ACTIONS = new Set(['run', 'stop', 'check', 'edit', 'reset']);

// Ctrl+Enter (⌘+Enter) runs the example (or checks the exercise) whose code or editor has focus. Focusing one loads this
// chunk (content-events.ts), so the listener is in place by the time a reader presses the keys.
document.addEventListener('keydown', (event) => {
  // The editor handles the keys itself (client/runner/editor.ts) and marks them handled.
  if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.defaultPrevented) return;
  const run = (event.target as Element | null)
    ?.closest?.('.code-block')
    ?.querySelector<HTMLButtonElement>(
      'button[data-code-action=run], button[data-code-action=stop], button[data-code-action=check]',
    );
  if (!run || run.dataset.codeAction === 'stop') return;
  event.preventDefault();
  run.click();
});

/**
 * A code block button. The runner is loaded with `load` (lazy-modules.ts), passed in by
 * content-events.ts so that this chunk does not import it too and split it out of the first load.
 */
export function onCodeButton(button: HTMLButtonElement, action: string, load: typeof loadLazyModule): void {
  const block = button.closest('.code-block');
  if (!block) return;
  if (RUNNER_ACTIONS.has(action)) {
    runner(load)
      .then((r) => r.onRunnerButton(button, action))
      .catch((error: unknown) => reportRunnerFailure(button, error));
    return;
  }
  if (action === 'wrap') {
    const wrapped = block.classList.toggle('wrap');
    button.setAttribute('aria-pressed', String(wrapped));
    return;
  }
  void copyText(codeOf(block)).then(() => {
    const label = button.querySelector('.code-button-label');
    if (!label) return;
    const original = button.dataset.copyLabel ?? label.textContent ?? '';
    button.dataset.copyLabel = original;
    label.textContent = button.dataset.copiedLabel ?? 'Copied';
    button.classList.add('copied');
    window.setTimeout(() => {
      label.textContent = original;
      button.classList.remove('copied');
    }, 2000);
  });
}

/** Shows one tab of a tab set; false when the set has no tab of that value. */
function showTab(tabs: Element, value: string): boolean {
  const list = Array.from(tabs.querySelectorAll<HTMLElement>(':scope > [role=tablist] > [role=tab]'));
  if (!list.some((tab) => tab.dataset.tab === value)) return false;
  for (const tab of list) {
    const active = tab.dataset.tab === value;
    tab.setAttribute('aria-selected', String(active));
    tab.tabIndex = active ? 0 : -1;
  }
  for (const panel of Array.from(tabs.querySelectorAll<HTMLElement>(':scope > [role=tabpanel]')))
    panel.hidden = panel.dataset.tabPanel !== value;
  return true;
}

const groupKey = (group: string) => `pybook-tabs-${group}`;

/**
 * Selects a tab. Tab sets that share a group (`<Tabs groupId="os">`) switch together, on this
 * page and, through localStorage, on every page the reader opens later.
 */
export function selectTab(tab: HTMLElement, focus: boolean): void {
  const tabs = tab.closest<HTMLElement>('[data-tabs]');
  const value = tab.dataset.tab;
  if (!tabs || value === undefined) return;
  showTab(tabs, value);
  const group = tabs.dataset.group;
  if (group) {
    // Keep the clicked tab where it is on screen while sets above it change height.
    const before = tab.getBoundingClientRect().top;
    for (const other of Array.from(document.querySelectorAll<HTMLElement>('[data-tabs][data-group]')))
      if (other !== tabs && other.dataset.group === group) showTab(other, value);
    window.scrollBy(0, tab.getBoundingClientRect().top - before);
    try {
      localStorage.setItem(groupKey(group), value);
    } catch {
      /* storage disabled: the choice lasts for this page */
    }
  }
  if (focus) tab.focus();
}

/**
 * What the reader left in this browser, on the page just rendered: on a chapter, it is noted as
 * the one they read last, and the code they edited there is put back (the runner is loaded only
 * if there is some); their progress is shown (its module is loaded only if there is progress to
 * show, or on the home page, whose "Your progress" panel is always there).
 */
export function applyReaderState(
  site: Pick<SiteData, 'basePath' | 'lazyModules'>,
  chapter: string | undefined,
  root: ParentNode,
  load: typeof loadLazyModule,
): void {
  shownSite = { site, load };
  const { basePath } = site;
  let hasCode = false;
  let hasProgress = false;
  try {
    if (chapter) {
      localStorage.setItem(lastChapterKey(basePath), JSON.stringify({ slug: chapter, at: Date.now() }));
      hasCode =
        localStorage.getItem(codeKey(basePath, chapter)) !== null ||
        localStorage.getItem(droppedKey(basePath, chapter)) !== null;
    }
    hasProgress = localStorage.getItem(exercisesKey(basePath)) !== null;
  } catch {
    /* storage disabled: nothing was kept to show */
  }
  // Marked once the page shows what the reader left (tests and tools wait for it: data-reader-state).
  const done = () => (document.documentElement.dataset.readerState = chapter ?? 'home');
  const restored = hasCode
    ? runner(load).then((r) => r.restoreEdits(root)) // on failure the examples show the book's code
    : Promise.resolve();
  const shown = hasProgress || root.querySelector('[data-learner-home]') ? showProgress(site, load) : Promise.resolve();
  void Promise.allSettled([restored, shown]).then(done);
}

/** The page last rendered, for the progress shown when the reader's data changes. */
let shownSite: { site: Pick<SiteData, 'lazyModules'>; load: typeof loadLazyModule } | undefined;
// A Check kept its outcome (progress/client/store.ts says so): the progress module shows it,
// loaded now if the page had no progress to show before.
window.addEventListener(LEARNER_CHANGE, () => {
  if (shownSite) void showProgress(shownSite.site, shownSite.load).catch(() => {});
});

let progress: Promise<ProgressModule> | undefined;
/** Loads the progress module (once) and shows the reader's progress on the current page. */
async function showProgress(site: Pick<SiteData, 'lazyModules'>, load: typeof loadLazyModule): Promise<void> {
  const asset = site.lazyModules.progress;
  if (!asset) return;
  progress ??= load<ProgressModule>(asset);
  progress.catch(() => {
    progress = undefined; // the next page render tries again
  });
  await (await progress).showProgress();
}

/** The reader pointed at or focused Run or Edit: the runner and the block's runtime start loading (nothing is shown). */
export function onRunnerIntent(button: HTMLButtonElement, load: typeof loadLazyModule): void {
  runner(load)
    .then((r) => r.prepareRunner(button))
    .catch(() => {}); // a click reports what failed
}

/** The runner did not load (offline, say): the status line says so, and the next click tries again. */
function reportRunnerFailure(button: HTMLButtonElement, error: unknown): void {
  const status = button.closest('.code-run')?.querySelector('.code-run-status');
  const message = (error as Error).message;
  void pageSiteData()
    .then(
      (site) => site.strings.runner.loadFailed,
      () => '{message}',
    )
    .then((template) => {
      if (status) status.textContent = template.replace('{message}', message);
    });
}

/** Applies the reader's remembered choice to every grouped tab set in `root` (after each page render). */
export function applyTabChoices(root: ParentNode = document): void {
  for (const tabs of Array.from(root.querySelectorAll<HTMLElement>('[data-tabs][data-group]'))) {
    let value: string | null = null;
    try {
      value = localStorage.getItem(groupKey(tabs.dataset.group!));
    } catch {
      /* storage disabled */
    }
    if (value !== null) showTab(tabs, value);
  }
}

/** The tab an arrow, Home or End key moves to, or undefined for other keys. */
export function tabForKey(key: string, tab: HTMLElement): HTMLElement | undefined {
  const list = Array.from(tab.parentElement?.querySelectorAll<HTMLElement>('[role=tab]') ?? []);
  const index = list.indexOf(tab);
  const target = (
    { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: list.length - 1 } as Record<string, number>
  )[key];
  return target === undefined ? undefined : list[(target + list.length) % list.length];
}
