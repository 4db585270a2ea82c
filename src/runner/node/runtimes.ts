import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '../outcome.js';
import { bundleWorker } from '../bundle-workers.js';

export type BrowserRuntimeName = 'python' | 'javascript';

/** The V8 flag that gives this Node WebAssembly stack switching (JSPI), which Pyodide needs for asyncio.run() and time.sleep(). */
let stackSwitchingFlag: string[] | undefined;
function stackSwitchingFlags(): string[] {
  if (stackSwitchingFlag) return stackSwitchingFlag;
  const probe = 'process.exit(typeof WebAssembly.Suspending === "function" || typeof WebAssembly.Suspender === "function" ? 0 : 1)';
  for (const flags of [[], ['--experimental-wasm-jspi'], ['--experimental-wasm-stack-switching']]) {
    if (spawnSync(process.execPath, [...flags, '-e', probe]).status === 0) return (stackSwitchingFlag = flags);
  }
  return (stackSwitchingFlag = []);
}

/** The host script, compiled or (under the tests) as TypeScript through tsx. */
function hostModule(): { file: string; execArgv: string[] } {
  const url = new URL(import.meta.url.endsWith('.ts') ? './runtime-host.ts' : './runtime-host.js', import.meta.url);
  return { file: fileURLToPath(url), execArgv: import.meta.url.endsWith('.ts') ? ['--import', 'tsx'] : [] };
}

let sandboxScript: Promise<string> | undefined;

/** How a run in a runtime ended: its result, or the limit the check ended it at. */
export type RuntimeRunResult = RunResult | 'timeout' | 'output-limit';

interface Pending { resolve(result: RuntimeRunResult): void; timer: NodeJS.Timeout }

/** Output a run may print in a reader's runtime (stdout and stderr together), as for python3 and node. */
export const RUNTIME_OUTPUT_LIMIT_BYTES = 1024 * 1024;

/**
 * One of the reader's runtimes, hosted in a child process (runtime-host.ts). Examples run one at
 * a time; one that runs past its time limit kills the process, and the next run starts a fresh one.
 * Once closed it stays closed: a run queued behind a check that failed does not start it again.
 */
export class BrowserRuntime {
  private child?: ChildProcess;
  private ready?: Promise<string>;
  private nextId = 0;
  private pending = new Map<number, Pending>();
  private closed = false;

  constructor(readonly name: BrowserRuntimeName, private readonly fixturesDir: string, private readonly outputLimitBytes = RUNTIME_OUTPUT_LIMIT_BYTES) {}

  /** Starts the runtime (once); resolves with its version, e.g. "3.14.2". */
  start(): Promise<string> {
    if (this.closed) return Promise.reject(new Error(`the ${this.name} runtime was closed`));
    this.ready ??= this.spawn();
    return this.ready;
  }

  private async spawn(): Promise<string> {
    const host = hostModule();
    const execArgv = [...host.execArgv, ...(this.name === 'python' ? stackSwitchingFlags() : [])];
    const script = this.name === 'javascript' ? await (sandboxScript ??= bundleWorker('sandbox-worker').then((b) => b.code)) : undefined;
    // Local time is UTC, as for the python3 and node runs of the check.
    const child = fork(host.file, [], { execArgv, env: { ...process.env, TZ: 'UTC' }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
    this.child = child;
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    return new Promise<string>((resolve, reject) => {
      child.on('message', (message: { type: string; id?: number; version?: string; message?: string; outputLimit?: boolean } & RunResult) => {
        if (message.type === 'ready') resolve(message.version!);
        else if (message.type === 'failed') reject(new Error(`cannot start ${this.name} runtime: ${message.message}`));
        else if (message.type === 'result') {
          const pending = this.pending.get(message.id!);
          if (!pending) return;
          clearTimeout(pending.timer);
          this.pending.delete(message.id!);
          if (message.outputLimit) {
            // What the flood left in the interpreter's buffers would print in the next run: start afresh.
            this.discard(child);
            pending.resolve('output-limit');
          } else pending.resolve({ status: message.status, stdout: message.stdout, stderr: message.stderr });
        }
      });
      child.on('exit', (code) => {
        if (this.child === child) { this.child = undefined; this.ready = undefined; }
        reject(new Error(`the ${this.name} runtime exited (${code}) before it was ready:\n${stderr.slice(-2000)}`));
        for (const [id, pending] of this.pending) { clearTimeout(pending.timer); this.pending.delete(id); pending.resolve({ status: -1, stdout: '', stderr: `the ${this.name} runtime exited (${code}):\n${stderr.slice(-2000)}` }); }
      });
      child.send({ type: 'init', runtime: this.name, fixturesDir: this.fixturesDir, sandboxScript: script, outputLimitBytes: this.outputLimitBytes });
    });
  }

  /**
   * Runs one example; 'timeout' when it ran past `timeoutMs` (the runtime is then restarted on the
   * next run), 'output-limit' when it printed more than the runtime's output limit.
   */
  async run(source: string, filename: string, timeoutMs: number): Promise<RuntimeRunResult> {
    await this.start();
    const child = this.child!;
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.discard(child);
        resolve('timeout');
      }, timeoutMs);
      this.pending.set(id, { resolve, timer });
      child.send({ type: 'run', id, source, filename });
    });
  }

  /** Kills a host whose interpreter cannot be trusted any more; the next run starts a fresh one. */
  private discard(child: ChildProcess): void {
    if (this.child === child) { this.child = undefined; this.ready = undefined; }
    child.kill('SIGKILL');
  }

  close(): void {
    this.closed = true;
    this.child?.kill('SIGKILL');
    this.child = undefined;
    this.ready = undefined;
  }
}
