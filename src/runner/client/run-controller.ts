/**
 * One program run from a block, whatever asked for it (an example's Run, an exercise's Run or its
 * Check): the button that started it becomes Stop, the status line follows the run (download,
 * start, running), the run gets its time limit, and it ends exactly once, by itself, by Stop, at
 * the time limit, by a crash or because the runtime could not start. The caller says what to do
 * with the output and how each end reads.
 */
import type { RunnerSiteData } from '../../shared/model/page.js';
import type { RunnerStrings } from '../../shared/i18n/types.js';
import { blockParts, fill, setButton, type IdleButton } from './block.js';
import type { RunnerLanguage } from './protocol.js';
import { SandboxedRuntime } from './runtimes.js';

/** How a run ended when it did not end by itself. */
export type CutShort = 'stopped' | 'timed-out' | 'crashed' | 'failed';

export interface ProgramRun {
  block: HTMLElement;
  /** The button that started the run: Stop while it runs, then `idle` again. */
  button: HTMLButtonElement;
  idle: IdleButton;
  lang: RunnerLanguage;
  program: string;
  stdin: string;
  /** The status line while the program runs. */
  runningText: string;
  stdout(text: string): void;
  stderr(text: string): void;
  truncated(): void;
  /**
   * The program ended by itself: gives the status line's text and, for screen readers (the
   * status line is a live region), what they hear after it.
   */
  exit(status: number): { text: string; spoken?: string };
  /** The run ended otherwise; `message` is the status line's text (for 'failed', why it could not start). */
  cutShort(why: CutShort, message: string): void;
}

let runtimes: Record<RunnerLanguage, SandboxedRuntime> | undefined;
let setup: RunnerSiteData | undefined;
let t: RunnerStrings | undefined;

/** The site's runner settings and strings (set once the site data is known). */
export function configureRuns(runner: RunnerSiteData, strings: RunnerStrings): void {
  setup ??= runner;
  t ??= strings;
}

function runtimeFor(lang: RunnerLanguage): SandboxedRuntime {
  runtimes ??= {
    python: new SandboxedRuntime('python', setup!),
    javascript: new SandboxedRuntime('javascript', setup!),
  };
  return runtimes[lang];
}

/** Starts the runtime of `lang` ahead of a run (a sign of intent). */
export function prepareRuntime(lang: RunnerLanguage): void {
  runtimeFor(lang).prepare();
}

/** The run going on in a block (one at a time per block): ending it stops its sandbox and its timer. */
const active = new WeakMap<Element, { end(why: 'stopped'): void }>();

export const isRunning = (block: Element) => active.has(block);

export function stopRun(block: Element): void {
  active.get(block)?.end('stopped');
}

export function startRun(run: ProgramRun): void {
  if (active.has(run.block) || !setup || !t) return;
  const strings = t;
  const limitMs = setup.timeLimitMs;
  const { status: statusLine } = blockParts(run.block);
  const status = (text: string) => {
    statusLine.textContent = text;
  };
  let timer: number | undefined;
  let lastProgress = 0;
  let ended = false;
  const finish = () => {
    ended = true;
    window.clearTimeout(timer);
    active.delete(run.block);
    setButton(run.button, false, run.idle, strings);
  };
  const cutShort = (why: CutShort, message: string) => {
    if (ended) return;
    if (why === 'stopped' || why === 'timed-out') handle.stop();
    finish();
    status(message);
    run.cutShort(why, message);
  };
  active.set(run.block, { end: () => cutShort('stopped', strings.stopped) });
  setButton(run.button, true, run.idle, strings);
  // "Running…" only once the program runs (running() below): until then Python says it is starting.
  status(run.lang === 'python' ? strings.starting : '');
  const handle = runtimeFor(run.lang).run(run.program, run.stdin, {
    progress(loaded, total) {
      if (ended) return; // a failed start's message stays
      const now = performance.now();
      if (loaded < total && now - lastProgress < 250) return; // a calm status line (it is a live region)
      lastProgress = now;
      status(fill(strings.loading, { loaded: (loaded / 1e6).toFixed(1), total: (total / 1e6).toFixed(1) }));
    },
    starting() {
      if (!ended && run.lang === 'python') status(strings.starting);
    },
    running() {
      if (ended) return;
      status(run.runningText);
      timer = window.setTimeout(
        () => cutShort('timed-out', fill(strings.timedOut, { seconds: Math.round(limitMs / 100) / 10 })),
        limitMs,
      );
    },
    stdout: (text) => run.stdout(text),
    stderr: (text) => run.stderr(text),
    truncated: () => run.truncated(),
    exit(exitStatus) {
      if (ended) return;
      finish();
      const { text, spoken } = run.exit(exitStatus);
      status(text);
      if (spoken) {
        const hidden = document.createElement('span');
        hidden.className = 'visually-hidden';
        hidden.textContent = ` ${spoken}`;
        statusLine.appendChild(hidden);
      }
    },
    failed: (message) => cutShort('failed', fill(strings.loadFailed, { message })),
    crashed: () => cutShort('crashed', strings.crashed),
  });
}
