/**
 * One sandbox: an iframe with sandbox="allow-scripts" (an opaque origin, and a separate process
 * where the browser isolates sandboxed frames) loading the sandbox document, whose CSP forbids
 * every request. It starts one runtime and runs programs one at a time: after a run that ended by
 * itself and whose runtime says it can go on (Python, reset between runs), it is ready for the
 * next; otherwise the page removes it, which ends whatever the program was still doing (a flood
 * of output, an endless loop, a memory bomb).
 *
 * On a page the book's service worker controls (src/offline/), the iframe loads the sandbox's
 * launcher instead: a same-origin document the worker can serve offline (it serves no
 * opaque-origin frame), whose one script frames the same sandbox document through srcdoc with
 * sandbox="allow-scripts" and relays messages; the launcher's CSP, which the sandbox inherits, is
 * as strict as the sandbox's own (src/runner/build/sandbox-document.ts).
 *
 * Only messages from this iframe's window, of a known shape (protocol.ts), for this sandbox's
 * run and in the order a run goes through are acted on: a program cannot forge the page's states.
 */
import {
  SILENCE_MS,
  sandboxMessage,
  type FileMessage,
  type FromSandbox,
  type RunMessage,
  type StartMessage,
} from './protocol.js';
import { OUTPUT_LIMITS } from './output-batch.js';
import type { RuntimeLoad } from './runtime-files.js';
import type { RunnerSiteData } from '../../shared/model/page.js';

export interface SandboxRunEvents {
  running(): void;
  stdout(text: string): void;
  stderr(text: string): void;
  truncated(): void;
  /** The program ended; `reusable`: the sandbox is ready for another run. */
  exit(status: number, reusable: boolean): void;
  /** The sandbox fell silent during the run: its process died (a program that ran out of memory). */
  crashed(): void;
}

let nextRunId = 1;

export class SandboxFrame {
  /** Resolves when the runtime in the sandbox has started (the iframe then has data-ready); rejects when it could not. */
  readonly ready: Promise<void>;
  private readonly frame: HTMLIFrameElement;
  private readonly onMessage: (event: MessageEvent) => void;
  private runId = 0;
  private events?: SandboxRunEvents;
  private phase: 'starting' | 'ready' | 'queued' | 'running' | 'ended' = 'starting';
  /** When the run's sandbox was last heard from, and the timer that checks it. */
  private heard = 0;
  private watchdog?: number;

  constructor(setup: Pick<RunnerSiteData, 'sandbox' | 'launcher'>, runtime: RuntimeLoad) {
    const frame = (this.frame = document.createElement('iframe'));
    // A page the book's service worker controls frames the launcher, which the worker can serve
    // offline; it frames the same sandbox document, sandboxed the same way (see sandboxLauncher).
    const launched = Boolean(setup.launcher && navigator.serviceWorker?.controller);
    if (!launched) frame.setAttribute('sandbox', 'allow-scripts');
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    frame.title = 'Example sandbox';
    frame.className = 'code-run-sandbox';
    frame.hidden = true; // scripts in a hidden frame still run
    let settle!: { resolve(): void; reject(error: Error): void };
    this.ready = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    this.ready.catch(() => {}); // a sandbox started ahead of a run may fail unheard: the run that uses it hears it
    this.onMessage = (event) => {
      if (event.source !== frame.contentWindow) return;
      const message = sandboxMessage(event.data);
      if (message) this.receive(message, runtime, settle);
    };
    window.addEventListener('message', this.onMessage);
    frame.src = launched ? setup.launcher : setup.sandbox;
    document.body.appendChild(frame);
  }

  private receive(
    message: FromSandbox,
    runtime: RuntimeLoad,
    settle: { resolve(): void; reject(error: Error): void },
  ): void {
    if (message.type === 'frame-ready') {
      if (this.phase !== 'starting') return;
      runtime.complete.catch((error: Error) => settle.reject(error));
      // The runtime starts on what it has: each file follows the start message as soon as it is downloaded.
      void runtime.start.then(
        (start) => {
          this.post(start);
          for (const file of runtime.files)
            void file.then(
              (f) => this.post(f),
              () => {},
            );
        },
        () => {},
      );
      return;
    }
    if (message.type === 'ready' || message.type === 'load-failed') {
      if (this.phase !== 'starting') return;
      if (message.type === 'ready') {
        this.phase = 'ready';
        this.frame.dataset.ready = '';
        settle.resolve();
      } else {
        this.phase = 'ended';
        settle.reject(new Error(message.message));
      }
      return;
    }
    const events = this.events;
    if (!events || message.id !== this.runId) return;
    this.heard = performance.now();
    if (message.type === 'alive') return;
    if (message.type === 'running') {
      if (this.phase === 'queued') {
        this.phase = 'running';
        events.running();
      }
      return;
    }
    if (this.phase !== 'running') return;
    if (message.type === 'stdout') events.stdout(message.text);
    else if (message.type === 'stderr') events.stderr(message.text);
    else if (message.type === 'truncated') events.truncated();
    else if (message.type === 'exit') {
      this.end(message.reusable);
      events.exit(message.status, message.reusable);
    }
  }

  private post(message: StartMessage | FileMessage | RunMessage): void {
    this.frame.contentWindow?.postMessage(message, '*');
  }

  /** Whether the sandbox is started and runs nothing: it can take a run. */
  get idle(): boolean {
    return this.phase === 'ready' && !this.events;
  }

  /** Runs one program (once the runtime is ready, and after the last run ended reusable). */
  run(source: string, stdin: string, events: SandboxRunEvents): void {
    if (!this.idle) throw new Error('this sandbox is not ready for a run');
    this.events = events;
    this.runId = nextRunId++;
    this.phase = 'queued';
    this.heard = performance.now();
    this.watchdog = window.setInterval(() => {
      if (performance.now() - this.heard <= SILENCE_MS) return;
      this.end();
      events.crashed();
    }, SILENCE_MS / 4);
    this.post({ type: 'run', id: this.runId, source, stdin, limits: OUTPUT_LIMITS });
  }

  /** The run is over: the sandbox is ready for another (`reusable`) or done. */
  private end(reusable = false): void {
    this.phase = reusable ? 'ready' : 'ended';
    if (reusable) this.events = undefined;
    window.clearInterval(this.watchdog);
  }

  /** Ends everything in the sandbox at once. */
  destroy(): void {
    this.end();
    window.removeEventListener('message', this.onMessage);
    this.frame.remove();
  }
}
