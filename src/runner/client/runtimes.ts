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
 * One language's runs, each in a sandbox of its own (sandbox-frame.ts): every run starts fresh,
 * as `python example.py` and `node example.mjs` do. To keep that fast, one sandbox is started
 * ahead (on the reader's first sign of intent, and again as soon as a run takes it), so the next
 * run finds its interpreter started.
 */
export class SandboxedRuntime {
  private spare?: SandboxFrame;

  constructor(
    private readonly lang: RunnerLanguage,
    private readonly setup: RunnerSiteData,
  ) {}

  /** Starts a sandbox ahead of the next run (fetching the runtime first if needed). */
  prepare(): void {
    if (this.spare) return;
    const spare = (this.spare = new SandboxFrame(this.setup.sandbox, runtimeLoad(this.lang, this.setup)));
    // A sandbox that failed to start is not kept: the next run starts another one and says why.
    spare.ready.catch(() => {
      if (this.spare === spare) {
        spare.destroy();
        this.spare = undefined;
      }
    });
  }

  run(source: string, stdin: string, events: RunEvents): RunHandle {
    const downloading = runtimeLoad(this.lang, this.setup, (loaded, total) => events.progress(loaded, total)).complete;
    this.prepare();
    const frame = this.spare!;
    this.spare = undefined;
    // The next run's sandbox starts at once, even while this one is still starting: a reader who
    // runs again right after a first run then finds it ready. On 2 cores the two starts share the
    // CPU (first output ~0.6 s later, a second run right after it ~0.15 s instead of ~2.2 s).
    this.prepare();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      frame.destroy();
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
          exit: (status) => {
            end();
            events.exit(status);
          },
          crashed: () => {
            end();
            // The spare may have shared the dead process (sandboxes of one site can): start another.
            this.spare?.destroy();
            this.spare = undefined;
            this.prepare();
            events.crashed();
          },
        });
      },
      (error: Error) => {
        if (ended) return;
        ended = true;
        frame.destroy();
        events.failed(error.message);
      },
    );
    return { stop: end };
  }
}
