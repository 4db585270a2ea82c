import type { RunnerSiteData } from '../../pages/types.js';

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
  exit(status: number): void;
  failed(message: string): void;
}

export interface RunHandle {
  /** Ends the run at once; the runtime is discarded and the next run gets a fresh one. */
  stop(): void;
}

export interface Runtime {
  run(source: string, events: RunEvents): RunHandle;
  /** Whether the next run starts a new interpreter after an earlier one was stopped. */
  readonly restarted: boolean;
}

type WorkerMessage =
  | { type: 'progress'; loaded: number; total: number }
  | { type: 'starting' }
  | { type: 'running'; id: number }
  | { type: 'stdout' | 'stderr'; id: number; text: string }
  | { type: 'exit'; id: number; status: number }
  | { type: 'failed'; id?: number; message: string };

/**
 * Python in a module worker (python-worker.ts), loaded on the first run and kept for the page's
 * lifetime, across client-side navigations: later runs start at once. Stopping a run
 * terminates the worker; the next run starts a fresh one.
 */
export class PythonRuntime implements Runtime {
  private worker?: Worker;
  private nextId = 0;
  private readonly listeners = new Map<number, RunEvents>();
  private stoppedBefore = false;

  constructor(private readonly setup: RunnerSiteData) {}

  get restarted(): boolean {
    return this.stoppedBefore && !this.worker;
  }

  private start(): Worker {
    const worker = new Worker(this.setup.python.worker, { type: 'module', name: 'pybook-python' });
    worker.onmessage = ({ data }: MessageEvent<WorkerMessage>) => {
      // Loading progress concerns every run waiting for the interpreter.
      if (data.type === 'progress') { for (const l of this.listeners.values()) l.progress(data.loaded, data.total); return; }
      if (data.type === 'starting') { for (const l of this.listeners.values()) l.starting(); return; }
      const listener = data.id === undefined ? undefined : this.listeners.get(data.id);
      if (data.type === 'failed') {
        // The interpreter could not start: every waiting run learns it, and the next run tries again.
        for (const l of data.id === undefined ? this.listeners.values() : [listener].filter(Boolean) as RunEvents[]) l.failed(data.message);
        this.discard();
        return;
      }
      if (!listener) return;
      if (data.type === 'running') listener.running();
      else if (data.type === 'stdout') listener.stdout(data.text);
      else if (data.type === 'stderr') listener.stderr(data.text);
      else if (data.type === 'exit') { this.listeners.delete(data.id); listener.exit(data.status); }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      for (const l of this.listeners.values()) l.failed(event.message || 'the Python worker failed');
      this.discard();
    };
    return worker;
  }

  private discard(): void {
    this.worker?.terminate();
    this.worker = undefined;
    this.listeners.clear();
  }

  run(source: string, events: RunEvents): RunHandle {
    this.worker ??= this.start();
    const id = this.nextId++;
    this.listeners.set(id, events);
    const { indexUrl, downloads, lock } = this.setup.python;
    this.worker.postMessage({ type: 'run', id, source, setup: { indexUrl, downloads, lock, fixtures: this.setup.fixtures } });
    return {
      stop: () => {
        if (!this.listeners.has(id)) return;
        this.stoppedBefore = true;
        this.discard();
      },
    };
  }
}

/**
 * The document of the JavaScript sandbox: an iframe with an opaque origin (sandbox without
 * allow-same-origin), so nothing in it can reach the page, its cookies or the site's storage.
 * Each run gets a new Worker inside it, made from the sandbox script the page hands over.
 */
const SANDBOX_DOCUMENT = `<!doctype html><meta charset="utf-8"><script>
var url, workers = {};
addEventListener('message', function (event) {
  if (event.source !== parent) return;
  var m = event.data, id = m.id;
  if (m.type === 'run') {
    if (!url) url = URL.createObjectURL(new Blob([m.script], { type: 'text/javascript' }));
    var worker = workers[id] = new Worker(url);
    worker.onmessage = function (e) { var d = e.data; d.id = id; parent.postMessage(d, '*'); if (d.type === 'exit') { worker.terminate(); delete workers[id]; } };
    worker.onerror = function (e) { e.preventDefault(); parent.postMessage({ type: 'stderr', id: id, text: 'Uncaught ' + e.message + '\\n' }, '*'); parent.postMessage({ type: 'exit', id: id, status: 1 }, '*'); worker.terminate(); delete workers[id]; };
    worker.postMessage({ source: m.source });
  } else if (m.type === 'stop' && workers[id]) {
    workers[id].terminate();
    delete workers[id];
  }
});
parent.postMessage({ type: 'sandbox-ready' }, '*');
</script>`;

/** JavaScript in the sandbox: a fresh realm for every run, like a new `node` process. */
export class JavaScriptRuntime implements Runtime {
  readonly restarted = false;
  private frame?: Promise<HTMLIFrameElement>;
  private script?: Promise<string>;
  private nextId = 0;
  private readonly listeners = new Map<number, RunEvents>();

  constructor(private readonly setup: RunnerSiteData) {}

  private sandbox(): Promise<HTMLIFrameElement> {
    this.frame ??= new Promise((resolve) => {
      const frame = document.createElement('iframe');
      frame.setAttribute('sandbox', 'allow-scripts');
      frame.setAttribute('aria-hidden', 'true');
      frame.tabIndex = -1;
      frame.title = 'JavaScript sandbox';
      frame.hidden = true; // scripts in a hidden frame still run
      frame.srcdoc = SANDBOX_DOCUMENT;
      window.addEventListener('message', (event: MessageEvent<WorkerMessage | { type: 'sandbox-ready' }>) => {
        if (event.source !== frame.contentWindow || !event.data || typeof event.data !== 'object') return;
        if (event.data.type === 'sandbox-ready') { resolve(frame); return; }
        const data = event.data as WorkerMessage;
        const listener = 'id' in data && data.id !== undefined ? this.listeners.get(data.id) : undefined;
        if (!listener) return;
        if (data.type === 'stdout') listener.stdout(String(data.text));
        else if (data.type === 'stderr') listener.stderr(String(data.text));
        else if (data.type === 'exit') { this.listeners.delete(data.id); listener.exit(Number(data.status)); }
      });
      document.body.appendChild(frame);
    });
    return this.frame;
  }

  private sandboxScript(): Promise<string> {
    this.script ??= fetch(this.setup.javascript.worker).then((response) => {
      if (!response.ok) throw new Error(`${this.setup.javascript.worker}: HTTP ${response.status}`);
      return response.text();
    });
    this.script.catch(() => { this.script = undefined; });
    return this.script;
  }

  run(source: string, events: RunEvents): RunHandle {
    const id = this.nextId++;
    this.listeners.set(id, events);
    let stopped = false;
    void Promise.all([this.sandbox(), this.sandboxScript()]).then(([frame, script]) => {
      if (stopped) return;
      events.running();
      frame.contentWindow!.postMessage({ type: 'run', id, source, script }, '*');
    }, (error: unknown) => { this.listeners.delete(id); events.failed((error as Error).message); });
    return {
      stop: () => {
        stopped = true;
        if (!this.listeners.delete(id)) return;
        void this.frame?.then((frame) => frame.contentWindow!.postMessage({ type: 'stop', id }, '*'));
      },
    };
  }
}
