/**
 * Running and editing examples in the page (a lazy entry, loaded on the reader's first sign of
 * intent: pointing at or focusing Run or Edit). The Run bar is server-rendered by CodeBlock for
 * examples that passed in the reader's runtimes (`pybook check`); this module wires it up: Run /
 * Stop, each run's own time limit, the output panel with what the run came to (matches the book,
 * differs, raised an exception, timed out, stopped, truncated), the Input field input() reads,
 * and an editor whose text survives navigation within the session.
 */
import type { RunnerModule } from '../../client/core/lazy-contracts.js';
import type { RunnerSiteData, SiteData } from '../../shared/model/page.js';
import type { ExerciseStrings, RunnerStrings } from '../../shared/i18n/types.js';
import { checkExercise, type RunPython } from '../../exercise/client/check.js';
import { pageSiteData } from '../../client/core/page-site-data.js';
import { editorIn, remember } from './editors.js';
import { OutputPanel } from './output-panel.js';
import type { RunnerLanguage } from './protocol.js';
import { missingModule, readPastInput, verdictOf } from './run-verdict.js';
import { SandboxedRuntime } from './runtimes.js';

const EDITS_KEY = 'pybook-edits';

let runtimes: Record<RunnerLanguage, SandboxedRuntime> | undefined;
function runtimeFor(lang: RunnerLanguage, setup: RunnerSiteData): SandboxedRuntime {
  runtimes ??= { python: new SandboxedRuntime('python', setup), javascript: new SandboxedRuntime('javascript', setup) };
  return runtimes[lang];
}

/** The run in progress in a block: ending it stops its sandbox and clears its own timer. */
const active = new WeakMap<Element, { end(why: 'stopped'): void }>();

/** The site data, set before any action runs (it is in the HTTP cache by then). */
let loadedSite: SiteData | undefined;

function site() {
  if (!loadedSite?.runner) throw new Error('this site has no example runner');
  return { setup: loadedSite.runner, t: loadedSite.strings.runner };
}

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));

function blockParts(block: Element) {
  return {
    bar: block.querySelector<HTMLElement>('.code-run')!,
    status: block.querySelector<HTMLElement>('.code-run-status')!,
    pre: block.querySelector<HTMLElement>('.code-pre')!,
    runButton: block.querySelector<HTMLButtonElement>(
      'button[data-code-action=run], button[data-code-action=stop], button[data-code-action=check]',
    )!,
    editButton: block.querySelector<HTMLButtonElement>(
      'button[data-code-action=edit], button[data-code-action=reset]',
    )!,
  };
}

const langOf = (block: Element): RunnerLanguage =>
  block.querySelector<HTMLElement>('.code-run')?.dataset.runLang === 'javascript' ? 'javascript' : 'python';

/** The book's code of the block. */
function bookCode(block: Element): string {
  return (block.querySelector('.code-pre code')?.textContent ?? '').replace(/\n$/, '');
}

/** The code the reader sees: the editor's text when editing, else the book's. */
const currentCode = (block: Element) => editorIn(block)?.value() ?? bookCode(block);

/** The output panel the book shows (not the reader's run). */
function bookOutput(block: Element): string | undefined {
  const pre = block.querySelector(':scope > .code-output:not(.code-run-output) .code-output-pre');
  return pre ? (pre.textContent ?? '') : undefined;
}

/** What a block's main button is when nothing runs: Run (naming its language) or an exercise's Check. */
interface IdleButton {
  action: 'run' | 'check';
  label: string;
  name: string;
}

const runButtonOf = (t: RunnerStrings, language: string): IdleButton => ({
  action: 'run',
  label: t.run,
  name: fill(t.runLabel, { language }),
});
const checkButtonOf = (strings: ExerciseStrings): IdleButton => ({
  action: 'check',
  label: strings.check,
  name: strings.checkLabel,
});

/** A block's main button: Stop while its run or check goes on, else what it is when idle. */
function setMainButton(button: HTMLButtonElement, running: boolean, idle: IdleButton, t: RunnerStrings): void {
  button.dataset.codeAction = running ? 'stop' : idle.action;
  button.setAttribute('aria-label', running ? t.stop : idle.name);
  button.querySelector('.code-run-label')!.textContent = running ? t.stop : idle.label;
  button.classList.toggle('running', running);
}

const languageName = (lang: string) => (lang === 'python' ? 'Python' : 'JavaScript');

/** The Input field of a Python block (what input() and sys.stdin read), made when the code reads input. */
function stdinField(block: HTMLElement, t: RunnerStrings, make: boolean): HTMLTextAreaElement | undefined {
  let field = block.querySelector<HTMLTextAreaElement>('textarea.code-run-stdin');
  if (!field && make) {
    const label = document.createElement('label');
    label.className = 'code-run-stdin-label';
    const text = document.createElement('span');
    text.textContent = t.stdinLabel;
    field = document.createElement('textarea');
    field.className = 'code-run-stdin';
    field.rows = 2;
    field.spellcheck = false;
    label.append(text, field);
    blockParts(block).bar.after(label);
  }
  return field ?? undefined;
}

const readsInput = (lang: RunnerLanguage, code: string) => lang === 'python' && /\binput\s*\(|sys\.stdin/.test(code);

/** The route of the chapter on installing packages (pip), in the page's language. */
function packagesChapter(): string | undefined {
  return Object.keys(loadedSite?.routes ?? {}).find((route) => /\/pip\/$/.test(route));
}

/** Runs the example of `block` (its editor's text when editing). */
function run(block: HTMLElement): void {
  const { setup, t } = site();
  const lang = langOf(block);
  const parts = blockParts(block);
  const source = currentCode(block);
  const stdin = stdinField(block, t, readsInput(lang, source))?.value ?? '';
  const output = new OutputPanel(block, t);
  output.startRun();
  let stdout = '';
  let stderr = '';
  const status = (text: string) => {
    parts.status.textContent = text;
  };
  let timer: number | undefined;
  let lastProgress = 0;
  let ended = false;
  /** Ends this run's part of the page: its timer, its Stop button; the handle is only this run's. */
  const finish = () => {
    ended = true;
    window.clearTimeout(timer);
    if (active.get(block) === current) active.delete(block);
    setMainButton(parts.runButton, false, runButtonOf(t, languageName(lang)), t);
  };
  const current = {
    end(why: 'stopped' | 'timed-out') {
      if (ended) return;
      handle.stop();
      finish();
      output.setVerdict(why);
      status(why === 'stopped' ? t.stopped : fill(t.timedOut, { seconds: Math.round(setup.timeLimitMs / 100) / 10 }));
    },
  };
  setMainButton(parts.runButton, true, runButtonOf(t, languageName(lang)), t);
  // "Running…" only once the program runs (running() below): until then Python says it is starting.
  status(lang === 'python' ? t.starting : '');
  const handle = runtimeFor(lang, setup).run(source, stdin, {
    progress(loaded, total) {
      const now = performance.now();
      if (loaded < total && now - lastProgress < 250) return; // a calm status line (it is a live region)
      lastProgress = now;
      status(fill(t.loading, { loaded: (loaded / 1e6).toFixed(1), total: (total / 1e6).toFixed(1) }));
    },
    starting() {
      if (lang === 'python') status(t.starting);
    },
    running() {
      status(t.running);
      timer = window.setTimeout(() => current.end('timed-out'), setup.timeLimitMs);
    },
    // Kept for the verdict up to what is shown: an endless print loop must not fill the memory.
    stdout(text) {
      if (!output.truncated) stdout += text;
      output.append(text, 'stdout');
    },
    stderr(text) {
      if (!output.truncated) stderr += text;
      output.append(text, 'stderr');
    },
    truncated() {
      output.truncate();
    },
    exit(exitStatus) {
      finish();
      const verdict = verdictOf(
        { lang, status: exitStatus, stdout, stderr, truncated: output.truncated },
        bookOutput(block),
        block.dataset.raises,
      );
      const label = verdict === 'matches' ? t.matches : verdict === 'differs' ? t.differs : '';
      output.setVerdict(verdict, label);
      status(
        verdict === 'truncated'
          ? t.finishedTruncated
          : verdict === 'raised'
            ? t.raised
            : label
              ? fill(t.finished, { verdict: label })
              : fill(t.finishedStatus, { status: exitStatus }),
      );
      explain(block, lang, stderr, output, t);
      // The status line is a live region: screen readers hear the verdict, then the output's start.
      const printed = (stdout + stderr).trim();
      if (printed) {
        const spoken = document.createElement('span');
        spoken.className = 'visually-hidden';
        spoken.textContent = ` ${printed.slice(0, 300)}`;
        parts.status.appendChild(spoken);
      }
    },
    failed(message) {
      finish();
      output.setVerdict('failed');
      status(fill(t.loadFailed, { message }));
    },
    crashed() {
      finish();
      output.setVerdict('crashed');
      status(t.crashed);
    },
  });
  active.set(block, current);
}

/** One sentence under a failed run when the page knows why: a package it does not have, input it was not given. */
function explain(
  block: HTMLElement,
  lang: RunnerLanguage,
  stderr: string,
  output: OutputPanel,
  t: RunnerStrings,
): void {
  if (lang !== 'python') return;
  const module = missingModule(stderr);
  if (module) {
    const chapter = packagesChapter();
    output.hint(fill(t.moduleMissing, { module }), chapter ? { href: chapter, text: t.moduleMissingLink } : undefined);
  } else if (readPastInput(stderr)) {
    output.hint(t.inputMissing);
    stdinField(block, t, true)!.focus();
  }
}

/**
 * Check: the exercise's tests run on the block's code (the reader's edit, else the starter) in a
 * fresh sandbox, as any run does, within the same time limit; the results are listed under the
 * block (client/exercise/check.ts) and the status line says how many tests pass.
 */
function check(block: HTMLElement): void {
  const { setup, t } = site();
  const parts = blockParts(block);
  if (active.has(block)) return; // a check is under way
  const status = (text: string) => {
    parts.status.textContent = text;
  };
  const strings = loadedSite!.strings.exercise;
  status(strings.checking);
  // While the tests run, Check is Stop, as Run is during a run.
  setMainButton(parts.runButton, true, checkButtonOf(strings), t);
  let stopCurrent = () => {};
  active.set(block, { end: () => stopCurrent() });
  const runPython: RunPython = (program) =>
    new Promise((resolve, reject) => {
      let stdout = '';
      let stderr = '';
      let timer: number | undefined;
      const handle = runtimeFor('python', setup).run(program, '', {
        progress: (loaded, total) =>
          status(fill(t.loading, { loaded: (loaded / 1e6).toFixed(1), total: (total / 1e6).toFixed(1) })),
        starting: () => status(strings.checking),
        running: () => {
          status(strings.checking);
          timer = window.setTimeout(() => {
            handle.stop();
            reject(new Error(fill(t.timedOut, { seconds: Math.round(setup.timeLimitMs / 100) / 10 })));
          }, setup.timeLimitMs);
        },
        stdout: (text) => {
          stdout += text;
        },
        stderr: (text) => {
          stderr += text;
        },
        truncated: () => {},
        exit: () => {
          window.clearTimeout(timer);
          resolve({ stdout, stderr });
        },
        failed: (message) => {
          window.clearTimeout(timer);
          reject(new Error(fill(t.loadFailed, { message })));
        },
        crashed: () => {
          window.clearTimeout(timer);
          reject(new Error(t.crashed));
        },
      });
      stopCurrent = () => {
        window.clearTimeout(timer);
        handle.stop();
        reject(new Error(t.stopped));
      };
    });
  void checkExercise(block, currentCode(block), runPython, strings)
    .then(status, (error: Error) => status(error.message))
    .finally(() => {
      active.delete(block);
      setMainButton(parts.runButton, false, checkButtonOf(strings), t);
    });
}

function stop(block: HTMLElement): void {
  active.get(block)?.end('stopped');
}

/** Starts loading the block's runtime (a sign of intent), so that the run starts sooner. */
export async function prepareRunner(button: HTMLButtonElement): Promise<void> {
  loadedSite ??= await pageSiteData();
  const block = button.closest<HTMLElement>('.code-block');
  if (!block || !loadedSite.runner || !block.querySelector('.code-run[data-run-lang]')) return;
  if (button.dataset.codeAction === 'edit') void loadEditor().catch(() => {}); // a press of Edit says what failed
  runtimeFor(langOf(block), loadedSite.runner).prepare();
}

/* ---- Editing, remembered for the session ---- */

/** CodeMirror, fetched when the reader points at Edit or presses it (a chunk of its own). */
const loadEditor = () => import('./editor.js');
/** Blocks whose editor is being loaded: a second press of Edit meanwhile makes no second editor. */
const opening = new WeakSet<Element>();

type Edits = Record<string, Record<string, string>>;
function readEdits(): Edits {
  try {
    return JSON.parse(sessionStorage.getItem(EDITS_KEY) ?? '{}') as Edits;
  } catch {
    return {};
  }
}
function writeEdit(block: Element, code: string | undefined): void {
  const edits = readEdits();
  const page = (edits[location.pathname] ??= {});
  const index = String(blockIndex(block));
  if (code === undefined) delete page[index];
  else page[index] = code;
  if (!Object.keys(page).length) delete edits[location.pathname];
  try {
    sessionStorage.setItem(EDITS_KEY, JSON.stringify(edits));
  } catch {
    /* storage full or disabled: the edit lasts while the page is open */
  }
}
/** Which code block of the page this is: edits are stored by position. */
const blockIndex = (block: Element) => Array.from(document.querySelectorAll('.markdown .code-block')).indexOf(block);

async function edit(block: HTMLElement, code = bookCode(block), focus = true): Promise<void> {
  const { t } = site();
  const parts = blockParts(block);
  if (editorIn(block) || opening.has(block)) return;
  opening.add(block);
  let createEditor: Awaited<ReturnType<typeof loadEditor>>['createEditor'];
  try {
    ({ createEditor } = await loadEditor());
  } finally {
    opening.delete(block);
  }
  if (editorIn(block)) return;
  const lang = langOf(block);
  const editor = remember(
    createEditor({
      code,
      lang,
      label: fill(t.editorLabel, { language: languageName(lang) }),
      onChange: (text) => {
        writeEdit(block, text);
        if (readsInput(lang, text)) stdinField(block, t, true);
      },
      onRun: () => {
        if (parts.runButton.dataset.codeAction !== 'stop') parts.runButton.click();
      },
    }),
  );
  parts.pre.hidden = true;
  parts.pre.after(editor.element);
  block.classList.add('editing');
  parts.editButton.dataset.codeAction = 'reset';
  parts.editButton.textContent = t.reset;
  parts.editButton.setAttribute('aria-label', t.resetLabel);
  if (readsInput(lang, code)) stdinField(block, t, true);
  if (focus) editor.focus();
}

function reset(block: HTMLElement): void {
  const { t } = site();
  const parts = blockParts(block);
  editorIn(block)?.element.remove();
  parts.pre.hidden = false;
  block.classList.remove('editing');
  writeEdit(block, undefined);
  parts.editButton.dataset.codeAction = 'edit';
  parts.editButton.textContent = t.edit;
  parts.editButton.setAttribute('aria-label', t.editLabel);
  parts.pre.focus();
}

// Client-side navigation renders pages afresh: put the reader's edits back after each render.
(window as { __pybookAfterRender?: (root: ParentNode) => void }).__pybookAfterRender = (root) => {
  void restoreEdits(root);
};

/** Puts back the examples the reader edited on this page earlier in the session. */
export async function restoreEdits(root: ParentNode = document): Promise<void> {
  loadedSite ??= await pageSiteData();
  const page = readEdits()[location.pathname];
  if (!page) return;
  const blocks = Array.from(root.querySelectorAll<HTMLElement>('.markdown .code-block'));
  for (const [index, code] of Object.entries(page)) {
    const block = blocks[Number(index)];
    if (block?.querySelector('.code-run[data-run-lang]')) await edit(block, code, false);
  }
}

/** A click on Run, Stop, Check, Edit or Reset (dispatched by content-behaviour.ts). */
export async function onRunnerButton(button: HTMLButtonElement): Promise<void> {
  loadedSite ??= await pageSiteData();
  const block = button.closest<HTMLElement>('.code-block');
  if (!block) return;
  const action = button.dataset.codeAction;
  if (action === 'run') run(block);
  else if (action === 'check') check(block);
  else if (action === 'stop') stop(block);
  else if (action === 'edit') {
    runtimeFor(langOf(block), site().setup).prepare();
    await edit(block);
  } else if (action === 'reset') reset(block);
}

// The shape client/core/content-behaviour.ts expects of this module (it loads it by name, without importing it).
({ prepareRunner, restoreEdits, onRunnerButton }) satisfies RunnerModule;
