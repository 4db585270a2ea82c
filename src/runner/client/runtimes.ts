import type { RunnerSiteData } from '../../shared/model/page.js';
import type { RunnerLanguage } from './protocol.js';
import { runtimeLoad } from './runtime-files.js';
import { SandboxFrame } from './sandbox-frame.js';

/** What a run reports, as it happens. */
export interface RunEvents {
  /** Loading the runtime: bytes so far of the total (Python's first run only). */
  progress(loaded: number, total: number): void;
  /** Downloads are done; the interpreter is starting. */
  starting(): void;
  /** The program itself has started (the time limit counts from here). */
  running(): void;
  stdout(text: string): void;
  stderr(text: string): void;
  /** The output passed the limits; the rest is not shown. */
  truncated(): void;
  exit(status: number): void;
  failed(message: string): void;
  /** The sandbox died during the run (most likely the program ran out of memory). */
  crashed(): void;
}

export interface RunHandle {
  /** Ends the run at once: its sandbox is removed, with everything running in it. */
  stop(): void;
}

/**
 * A program that may reach JavaScript (asyncio does, through Pyodide's event loop): its sandbox
 * will likely not take another run, so the next run's is started at once. Only a guess for speed;
 * whether a sandbox runs again is what its runtime says when the run ends.
 */
const mayRetire = (lang: RunnerLanguage, source: string) =>
  lang === 'javascript' || /\b(asyncio|js|pyodide\w*)\b/.test(source);

/**
 * One language's runs, each in a sandbox (sandbox-frame.ts) that no run can reach out of. A
 * Python sandbox takes the next run once a run ended there by itself: its interpreter is warm and
 * the harness gives each run a fresh start (python-harness.ts), so a second run starts at once.
 * A run that was stopped, timed out, crashed or reached JavaScript retires its sandbox, and the
 * next one starts; JavaScript gets a new sandbox for every run (its runs cannot be reset). To keep
 * starts fast, a sandbox is started ahead on the reader's first sign of intent, and again whenever
 * the next run would otherwise find none.
 */
export class SandboxedRuntime {
  /** A started sandbox that ran nothing yet, or whose last run left it ready: the next run takes it. */
  private next?: SandboxFrame;

  constructor(
    private readonly lang: RunnerLanguage,
    private readonly setup: RunnerSiteData,
  ) {}

  /** Starts a sandbox ahead of the next run (fetching the runtime first if needed), unless one is there. */
  prepare(): void {
    if (this.next) return;
    const spare = (this.next = new SandboxFrame(this.setup, runtimeLoad(this.lang, this.setup)));
    // A sandbox that failed to start is not kept: the next run starts another one and says why.
    spare.ready.catch(() => this.retire(spare));
  }

  /** Ends a sandbox; the next run gets another. */
  private retire(frame: SandboxFrame): void {
    frame.destroy();
    if (this.next === frame) this.next = undefined;
  }

  run(source: string, stdin: string, events: RunEvents): RunHandle {
    const downloading = runtimeLoad(this.lang, this.setup, (loaded, total) => events.progress(loaded, total)).complete;
    this.prepare();
    const frame = this.next!;
    this.next = undefined;
    if (mayRetire(this.lang, source)) this.prepare();
    let ended = false;
    /** The run is over: its sandbox waits for the next run, or is removed (with whatever still runs in it). */
    const end = (reusable = false) => {
      if (ended) return;
      ended = true;
      if (reusable && !this.next && frame.idle) this.next = frame;
      else frame.destroy();
    };
    void downloading.then(
      () => {
        if (!ended) events.starting();
      },
      () => {},
    );
    frame.ready.then(
      () => {
        if (ended) return;
        frame.run(source, stdin, {
          running: () => events.running(),
          stdout: (text) => events.stdout(text),
          stderr: (text) => events.stderr(text),
          truncated: () => events.truncated(),
          exit: (status, reusable) => {
            end(reusable);
            events.exit(status);
          },
          crashed: () => {
            end();
            // The next sandbox may have shared the dead process (sandboxes of one site can): start another.
            if (this.next) this.retire(this.next);
            this.prepare();
            events.crashed();
          },
        });
      },
      (error: Error) => {
        if (ended) return;
        end();
        events.failed(error.message);
      },
    );
    return {
      stop: () => {
        if (ended) return;
        end();
        this.prepare(); // the next run starts on a sandbox started now
      },
    };
  }
}
