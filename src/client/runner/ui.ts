/**
 * Running and editing examples in the page (a lazy entry, loaded on the first Run or Edit).
 * The Run bar is server-rendered by CodeBlock for examples that passed in the reader's runtimes
 * (`pybook check`); this module wires it up: Run / Stop, the time limit, the output panel marked
 * as matching the book or not, and an editor whose text survives navigation within the session.
 */
import type { RunnerSiteData } from '../../pages/types.js';
import type { RunnerStrings } from '../../i18n/types.js';
import { judgeRun } from '../../runner/outcome.js';
import type { SiteData } from '../../pages/types.js';
import { pageSiteData } from '../page-site-data.js';
import { JavaScriptRuntime, PythonRuntime, type RunHandle, type Runtime } from './runtimes.js';

/** More output than this is cut (an endless print loop must not take the page down). */
const MAX_OUTPUT_CHARS = 200_000;
const EDITS_KEY = 'pybook-edits';

let runtimes: { python: Runtime; javascript: Runtime } | undefined;
function runtimeFor(lang: string, setup: RunnerSiteData): Runtime {
  runtimes ??= { python: new PythonRuntime(setup), javascript: new JavaScriptRuntime(setup) };
  return lang === 'python' ? runtimes.python : runtimes.javascript;
}

const active = new WeakMap<Element, RunHandle>();

/** The site data, set before any action runs (it is in the HTTP cache by then). */
let loadedSite: SiteData | undefined;

function site() {
  if (!loadedSite?.runner) throw new Error('this site has no example runner');
  return { setup: loadedSite.runner, t: loadedSite.strings.runner };
}

const fill = (template: string, values: Record<string, string | number>) => template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));

function blockParts(block: Element) {
  return {
    bar: block.querySelector<HTMLElement>('.code-run')!,
    status: block.querySelector<HTMLElement>('.code-run-status')!,
    pre: block.querySelector<HTMLElement>('.code-pre')!,
    editor: block.querySelector<HTMLTextAreaElement>('textarea.code-editor'),
    runButton: block.querySelector<HTMLButtonElement>('button[data-code-action=run], button[data-code-action=stop]')!,
    editButton: block.querySelector<HTMLButtonElement>('button[data-code-action=edit], button[data-code-action=reset]')!,
  };
}

/** The code the reader sees: the editor's text when editing, else the book's. */
function bookCode(block: Element): string {
  return (block.querySelector('.code-pre code')?.textContent ?? '').replace(/\n$/, '');
}

/** The output panel the book shows (not the reader's run). */
function bookOutput(block: Element): string | undefined {
  const pre = block.querySelector(':scope > .code-output:not(.code-run-output) .code-output-pre');
  return pre ? pre.textContent ?? '' : undefined;
}

/** The reader's output panel, made on the first run, after the book's output. */
function outputPanel(block: Element, t: RunnerStrings): { panel: HTMLElement; verdict: HTMLElement; code: HTMLElement } {
  let panel = block.querySelector<HTMLElement>(':scope > .code-run-output');
  if (!panel) {
    panel = document.createElement('div');
    panel.className = 'code-output code-run-output';
    panel.setAttribute('role', 'region');
    panel.setAttribute('aria-label', t.yourRun);
    const label = document.createElement('div');
    label.className = 'code-output-label';
    const name = document.createElement('span');
    name.textContent = t.yourRun;
    const verdict = document.createElement('span');
    verdict.className = 'code-run-verdict';
    label.append(name, verdict);
    const pre = document.createElement('pre');
    pre.className = 'code-output-pre';
    pre.tabIndex = 0;
    pre.appendChild(document.createElement('code'));
    panel.append(label, pre);
    block.appendChild(panel);
  }
  return { panel, verdict: panel.querySelector<HTMLElement>('.code-run-verdict')!, code: panel.querySelector<HTMLElement>('code')! };
}

function setRunButton(button: HTMLButtonElement, running: boolean, t: RunnerStrings, language: string): void {
  button.dataset.codeAction = running ? 'stop' : 'run';
  button.setAttribute('aria-label', running ? t.stop : fill(t.runLabel, { language }));
  button.querySelector('.code-run-label')!.textContent = running ? t.stop : t.run;
  button.classList.toggle('running', running);
}

const languageName = (lang: string) => (lang === 'python' ? 'Python' : 'JavaScript');

/** Runs the example of `block` (its editor's text when editing). */
function run(block: HTMLElement): void {
  const { setup, t } = site();
  const lang = block.querySelector<HTMLElement>('.code-run')?.dataset.runLang ?? 'python';
  const parts = blockParts(block);
  const source = parts.editor ? parts.editor.value : bookCode(block);
  const runtime = runtimeFor(lang, setup);
  const { panel, verdict, code } = outputPanel(block, t);
  code.textContent = '';
  verdict.textContent = '';
  panel.dataset.verdict = 'pending';
  // Which run the panel shows (tests and tools wait for the next number).
  panel.dataset.run = String(Number(panel.dataset.run ?? 0) + 1);
  let stdout = '';
  let stderr = '';
  let shown = 0;
  const append = (text: string, stream: 'stdout' | 'stderr') => {
    if (shown >= MAX_OUTPUT_CHARS) return;
    const piece = text.slice(0, MAX_OUTPUT_CHARS - shown);
    shown += piece.length;
    if (stream === 'stdout') code.appendChild(document.createTextNode(piece));
    else { const span = document.createElement('span'); span.className = 'code-run-stderr'; span.textContent = piece; code.appendChild(span); }
    if (shown >= MAX_OUTPUT_CHARS) code.appendChild(document.createTextNode('\n…'));
  };
  const restarted = runtime.restarted;
  // After a stop, every message of the next run says the interpreter is a fresh one.
  const status = (text: string) => { parts.status.textContent = restarted ? `${t.freshInterpreter} ${text}` : text; };
  let timer: number | undefined;
  let lastProgress = 0;
  const finish = () => {
    window.clearTimeout(timer);
    active.delete(block);
    setRunButton(parts.runButton, false, t, languageName(lang));
  };
  setRunButton(parts.runButton, true, t, languageName(lang));
  status(t.running);
  const handle = runtime.run(source, {
    progress(loaded, total) {
      const now = performance.now();
      if (loaded < total && now - lastProgress < 250) return; // a calm status line (it is a live region)
      lastProgress = now;
      status(fill(t.loading, { loaded: (loaded / 1e6).toFixed(1), total: (total / 1e6).toFixed(1) }));
    },
    starting() { status(t.starting); },
    running() {
      status(t.running);
      timer = window.setTimeout(() => {
        handle.stop();
        finish();
        panel.dataset.verdict = 'stopped';
        status(fill(t.timedOut, { seconds: Math.round(setup.timeLimitMs / 100) / 10 }));
      }, setup.timeLimitMs);
    },
    // Kept for the verdict up to a little past what is shown: an endless print loop must not fill the memory.
    stdout(text) { if (stdout.length <= MAX_OUTPUT_CHARS) stdout += text; append(text, 'stdout'); },
    stderr(text) { if (stderr.length <= MAX_OUTPUT_CHARS) stderr += text; append(text, 'stderr'); },
    exit(exitStatus) {
      finish();
      const expected = bookOutput(block);
      const raises = block.dataset.raises;
      if (expected === undefined && !raises) {
        panel.dataset.verdict = 'none';
        status(fill(t.finishedStatus, { status: exitStatus }));
      } else {
        const ok = judgeRun({ lang, output: expected, raises }, { status: exitStatus, stdout, stderr }).ok;
        panel.dataset.verdict = ok ? 'matches' : 'differs';
        verdict.textContent = ok ? t.matches : t.differs;
        status(fill(t.finished, { verdict: ok ? t.matches : t.differs }));
      }
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
      panel.dataset.verdict = 'failed';
      status(fill(t.loadFailed, { message }));
    },
  });
  active.set(block, handle);
}

function stop(block: HTMLElement): void {
  const { t } = site();
  active.get(block)?.stop();
  active.delete(block);
  const parts = blockParts(block);
  const lang = parts.bar.dataset.runLang ?? 'python';
  setRunButton(parts.runButton, false, t, languageName(lang));
  const panel = block.querySelector<HTMLElement>(':scope > .code-run-output');
  if (panel) panel.dataset.verdict = 'stopped';
  parts.status.textContent = t.stopped;
}

/* ---- Editing, remembered for the session ---- */

type Edits = Record<string, Record<string, string>>;
function readEdits(): Edits {
  try { return JSON.parse(sessionStorage.getItem(EDITS_KEY) ?? '{}') as Edits; } catch { return {}; }
}
function writeEdit(block: Element, code: string | undefined): void {
  const edits = readEdits();
  const page = (edits[location.pathname] ??= {});
  const index = String(blockIndex(block));
  if (code === undefined) delete page[index]; else page[index] = code;
  if (!Object.keys(page).length) delete edits[location.pathname];
  try { sessionStorage.setItem(EDITS_KEY, JSON.stringify(edits)); } catch { /* storage full or disabled: the edit lasts while the page is open */ }
}
/** Which code block of the page this is: edits are stored by position. */
const blockIndex = (block: Element) => Array.from(document.querySelectorAll('.markdown .code-block')).indexOf(block);

function edit(block: HTMLElement, code = bookCode(block), focus = true): void {
  const { t } = site();
  const parts = blockParts(block);
  if (parts.editor) return;
  const lang = parts.bar.dataset.runLang ?? 'python';
  const editor = document.createElement('textarea');
  editor.className = 'code-editor';
  editor.value = code;
  editor.spellcheck = false;
  editor.setAttribute('autocapitalize', 'off');
  editor.setAttribute('autocomplete', 'off');
  editor.setAttribute('aria-label', fill(t.editorLabel, { language: languageName(lang) }));
  editor.setAttribute('aria-keyshortcuts', 'Control+Enter Meta+Enter');
  const fit = () => { editor.rows = Math.max(2, editor.value.split('\n').length); };
  fit();
  editor.addEventListener('input', () => { fit(); writeEdit(block, editor.value); });
  parts.pre.hidden = true;
  parts.pre.after(editor);
  block.classList.add('editing');
  parts.editButton.dataset.codeAction = 'reset';
  parts.editButton.textContent = t.reset;
  parts.editButton.setAttribute('aria-label', t.resetLabel);
  if (focus) editor.focus();
}

function reset(block: HTMLElement): void {
  const { t } = site();
  const parts = blockParts(block);
  parts.editor?.remove();
  parts.pre.hidden = false;
  block.classList.remove('editing');
  writeEdit(block, undefined);
  parts.editButton.dataset.codeAction = 'edit';
  parts.editButton.textContent = t.edit;
  parts.editButton.setAttribute('aria-label', t.editLabel);
  parts.pre.focus();
}

// Client-side navigation renders pages afresh: put the reader's edits back after each render.
(window as { __pybookAfterRender?: (root: ParentNode) => void }).__pybookAfterRender = (root) => { void restoreEdits(root); };

/** Puts back the examples the reader edited on this page earlier in the session. */
export async function restoreEdits(root: ParentNode = document): Promise<void> {
  loadedSite ??= await pageSiteData();
  const page = readEdits()[location.pathname];
  if (!page) return;
  const blocks = Array.from(root.querySelectorAll<HTMLElement>('.markdown .code-block'));
  for (const [index, code] of Object.entries(page)) {
    const block = blocks[Number(index)];
    if (block?.querySelector('.code-run[data-run-lang]')) edit(block, code, false);
  }
}

/** A click on Run, Stop, Edit or Reset (dispatched by content-behaviour.ts). */
export async function onRunnerButton(button: HTMLButtonElement): Promise<void> {
  loadedSite ??= await pageSiteData();
  const block = button.closest<HTMLElement>('.code-block');
  if (!block) return;
  const action = button.dataset.codeAction;
  if (action === 'run') run(block);
  else if (action === 'stop') stop(block);
  else if (action === 'edit') edit(block);
  else if (action === 'reset') reset(block);
}
