/**
 * The script of the sandbox document (assets/runner/sandbox.<hash>/index.html): an iframe with
 * sandbox="allow-scripts" and no allow-same-origin, so its origin is opaque, and a CSP that
 * forbids every request (connect-src 'none'), which the blob-URL worker it starts inherits.
 * Nothing a program does there reaches the network, the site's storage or cookies, or the page.
 *
 * The page sends {type: 'start'} (the worker's code), then the runtime's files, one {type: 'file'}
 * each as it has them; the host starts the worker at once, passes the files on, and says 'ready'
 * once the runtime has started; then {type: 'run'}, one at a time. A run whose worker says it is
 * reusable (Python, reset between runs; see python-harness.ts) leaves the sandbox ready for the
 * next; any other end terminates the worker. The page removes the iframe when a run is stopped or
 * runs out of time (which also ends a flood or a hung worker: the next run gets another sandbox).
 */
import { mark } from './timeline-marks.js';
import {
  HEARTBEAT_MS,
  workerMessage,
  type FileMessage,
  type FromSandbox,
  type StartMessage,
  type ToSandbox,
} from './protocol.js';

type State = 'idle' | 'loading' | 'ready' | 'running' | 'done';

let state: State = 'idle';
let worker: Worker | undefined;
let runId = -1;
let heartbeat: ReturnType<typeof setInterval> | undefined;

const toPage = (message: FromSandbox) => parent.postMessage(message, '*');

function start(message: StartMessage): void {
  mark('sandbox start message');
  state = 'loading';
  const url = URL.createObjectURL(new Blob([message.script], { type: 'text/javascript' }));
  // A classic worker for both: Chromium starts no module worker from a blob URL in an opaque origin.
  worker = new Worker(url, { name: `pybook-${message.lang}` });
  worker.onmessage = (event) => fromWorker(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    if (state === 'loading') {
      state = 'done';
      toPage({ type: 'load-failed', message: event.message || 'the sandbox worker failed to start' });
      return;
    }
    if (state !== 'running') return;
    toPage({ type: 'stderr', id: runId, text: `Uncaught ${event.message}\n` });
    end(1);
  };
  const { fileNames, lock, fixtures } = message;
  // Handed over, not copied: this sandbox's copy of the fixtures is the worker's alone.
  const bytes = (fixtures ?? []).map((fixture) => fixture.bytes).filter((b) => b instanceof ArrayBuffer);
  worker.postMessage({ type: 'load', fileNames, lock, fixtures }, [...new Set(bytes)]);
}

/** Passes one of Pyodide's files on to the worker starting (a Blob: a reference, not a copy). */
function passFile({ name, file }: FileMessage): void {
  if (typeof name === 'string' && file instanceof Blob) worker!.postMessage({ type: 'file', name, file });
}

function end(status: number, reusable = false): void {
  clearInterval(heartbeat);
  state = reusable ? 'ready' : 'done';
  if (!reusable) worker?.terminate();
  toPage({ type: 'exit', id: runId, status, reusable });
}

/** A worker's message is acted on only if it has a known shape and fits the state (the program could post anything). */
function fromWorker(data: unknown): void {
  const message = workerMessage(data);
  if (!message) return;
  if (state === 'loading') {
    if (message.type === 'ready') {
      mark('sandbox ready');
      state = 'ready';
      toPage({ type: 'ready' });
    } else if (message.type === 'load-failed') {
      state = 'done';
      toPage(message);
    }
    return;
  }
  if (state !== 'running') return;
  if (message.type === 'stdout' || message.type === 'stderr') toPage({ ...message, id: runId });
  else if (message.type === 'truncated') toPage({ type: 'truncated', id: runId });
  else if (message.type === 'exit') end(message.status, message.reusable);
}

/**
 * The document acts only inside an opaque-origin frame (sandbox="allow-scripts" without
 * allow-same-origin): opened on its own, or framed by a page that did not sandbox it, it would run
 * programs with the site's origin (its storage, its cookies), so it does nothing there.
 */
const confined = self.origin === 'null' && parent !== self;

if (confined)
  addEventListener('message', (event: MessageEvent<ToSandbox>) => {
    if (event.source !== parent || typeof event.data !== 'object' || event.data === null) return;
    const message = event.data;
    if (message.type === 'start' && state === 'idle') start(message);
    else if (message.type === 'file' && state === 'loading') passFile(message);
    else if (message.type === 'run' && state === 'ready' && Number.isInteger(message.id)) {
      state = 'running';
      runId = message.id;
      toPage({ type: 'running', id: runId });
      // The page hears these as long as this process lives: a program that ran it out of memory kills
      // it (a sandboxed iframe has a process of its own), and then the page ends the run at once.
      heartbeat = setInterval(() => {
        if (state === 'running') toPage({ type: 'alive', id: runId });
      }, HEARTBEAT_MS);
      worker!.postMessage({
        type: 'run',
        source: String(message.source),
        stdin: String(message.stdin ?? ''),
        limits: message.limits,
      });
    }
  });

if (confined) {
  mark('sandbox document ready');
  toPage({ type: 'frame-ready' });
}
