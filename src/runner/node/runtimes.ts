import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { probeIsolation, processLimit, type Isolation } from '../../confine/isolation.js';
import { nodeReadable } from '../../confine/interpreters.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import type { RunResult } from '../shared/outcome.js';
import { bundleWorker } from '../../bundler/bundle-workers.js';
import { pyodideFolder } from '../build/browser-check-file.js';
import { PYODIDE_FILES, precompressedPyodide } from '../build/pyodide-precompressed.js';

export type BrowserRuntimeName = 'python' | 'javascript';

/** The V8 flag that gives this Node WebAssembly stack switching (JSPI), which Pyodide needs for asyncio.run() and time.sleep(). */
let stackSwitchingFlag: string[] | undefined;
function stackSwitchingFlags(): string[] {
  if (stackSwitchingFlag) return stackSwitchingFlag;
  const probe =
    'process.exit(typeof WebAssembly.Suspending === "function" || typeof WebAssembly.Suspender === "function" ? 0 : 1)';
  for (const flags of [[], ['--experimental-wasm-jspi'], ['--experimental-wasm-stack-switching']]) {
    if (spawnSync(process.execPath, [...flags, '-e', probe]).status === 0) return (stackSwitchingFlag = flags);
  }
  return (stackSwitchingFlag = []);
}

const HOST_FILE = 'runtime-host.cjs';

let hostScript: Promise<string> | undefined;

/**
 * The host script as one file that needs nothing but Node: the host runs confined, and what it
 * may read of the host machine is Node and this file.
 */
function bundleHost(): Promise<string> {
  hostScript ??= import('esbuild').then(async ({ build }) => {
    const result = await build({
      absWorkingDir: PACKAGE_ROOT,
      entryPoints: ['src/runner/node/runtime-host.ts'],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      write: false,
      logLevel: 'silent',
      legalComments: 'none',
    });
    return result.outputFiles[0].text;
  });
  return hostScript;
}

const workerScripts: Partial<Record<BrowserRuntimeName, Promise<string>>> = {};
const pageWorkerOf = (name: BrowserRuntimeName) =>
  (workerScripts[name] ??= bundleWorker(name === 'python' ? 'python-worker' : 'sandbox-worker').then((b) => b.code));

/** Pyodide's files as the site serves them (the standard library repacked with bytecode, when `npm run prepare` made it). */
function pyodideFiles(): { files: Array<{ name: string; bytes: Uint8Array }>; lock: string } {
  const prepared = precompressedPyodide();
  const files = PYODIDE_FILES.map((name) => {
    const { original, replacement } = prepared.get(name) ?? {};
    const file = replacement ?? original;
    return { name, bytes: file ? file.read() : readFileSync(path.join(pyodideFolder(), name)) };
  });
  const lock = JSON.parse(readFileSync(path.join(pyodideFolder(), 'pyodide-lock.json'), 'utf8')) as { info: unknown };
  return { files, lock: JSON.stringify({ info: lock.info, packages: {} }) };
}

/** How a run in a runtime ended: its result, or the limit the check ended it at. */
export type RuntimeRunResult = RunResult | 'timeout' | 'cpu-limit' | 'output-limit';

interface Pending {
  resolve(result: RuntimeRunResult): void;
  timer: NodeJS.Timeout;
}

/** Output a run may print in a reader's runtime (stdout and stderr together), as for python3 and node. */
export const RUNTIME_OUTPUT_LIMIT_BYTES = 1024 * 1024;
/** CPU time a run may use in a reader's runtime, as for python3 and node. */
export const RUNTIME_CPU_MS = 10_000;
/**
 * Address space of the host. V8 reserves address space generously (guard regions around every
 * WebAssembly memory, each thread's heap): a host running Pyodide peaked at 33 GiB of it here
 * while using 0.75 GiB of memory. What a program can really take is bounded inside: Pyodide's
 * memory by WebAssembly's 4 GiB, a thread's JavaScript heap by its resource limit (runtime-host.ts).
 */
const HOST_ADDRESS_SPACE_BYTES = 64 * 1024 ** 3;
const HOST_TMP_BYTES = 64 * 1024 ** 2;

export interface BrowserRuntimeOptions {
  outputLimitBytes?: number;
  cpuTimeMs?: number;
  /** How the host is confined (default: the best this machine allows, probed once). */
  isolation?: Isolation;
}

/**
 * One of the reader's runtimes, hosted in a child process (runtime-host.ts) confined like the
 * examples. Examples run one at a time; one that runs past its wall-clock limit kills the
 * process, and the next run starts a fresh one. Once closed it stays closed: a run queued behind
 * a check that failed does not start it again.
 */
export class BrowserRuntime {
  private child?: ChildProcess;
  private ready?: Promise<string>;
  private nextId = 0;
  private pending = new Map<number, Pending>();
  private closed = false;
  private readonly options: Required<Omit<BrowserRuntimeOptions, 'isolation'>> & { isolation?: Isolation };

  constructor(
    readonly name: BrowserRuntimeName,
    private readonly fixturesDir: string,
    options: BrowserRuntimeOptions = {},
  ) {
    this.options = {
      outputLimitBytes: options.outputLimitBytes ?? RUNTIME_OUTPUT_LIMIT_BYTES,
      cpuTimeMs: options.cpuTimeMs ?? RUNTIME_CPU_MS,
      isolation: options.isolation,
    };
  }

  /** The process the check started for the host (the isolation's launcher, whose tree holds Node). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the runtime (once); resolves with its version, e.g. "3.14.2". */
  start(): Promise<string> {
    if (this.closed) return Promise.reject(new Error(`the ${this.name} runtime was closed`));
    this.ready ??= this.spawn();
    return this.ready;
  }

  private async spawn(): Promise<string> {
    const [host, script] = await Promise.all([bundleHost(), pageWorkerOf(this.name)]);
    const isolation = this.options.isolation ?? probeIsolation();
    // The host's folder: its script, copied into the sandbox's working folder (readable by the sandbox's user).
    const folder = mkdtempSync(path.join(os.tmpdir(), 'pybook-runtime-'));
    writeFileSync(path.join(folder, HOST_FILE), host);
    chmodSync(folder, 0o755);
    const flags = this.name === 'python' ? stackSwitchingFlags() : [];
    const argv = isolation.commandLine({
      argv: [process.execPath, ...flags, HOST_FILE],
      input: folder,
      readable: nodeReadable(),
      limits: {
        addressSpaceBytes: HOST_ADDRESS_SPACE_BYTES,
        fileBytes: HOST_TMP_BYTES,
        processes: processLimit(isolation),
        tmpBytes: HOST_TMP_BYTES,
      },
    });
    // All the environment it gets (local time is UTC, as for the python3 and node runs of the check).
    const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/tmp', LANG: 'C.UTF-8', TZ: 'UTC' };
    const child = spawn(argv[0], argv.slice(1), {
      cwd: folder,
      env,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      detached: true,
    });
    this.child = child;
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-4000);
    });
    child.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    const { files, lock } = this.name === 'python' ? pyodideFiles() : { files: undefined, lock: '' };
    return new Promise<string>((resolve, reject) => {
      child.on(
        'message',
        (
          message: {
            type: string;
            id?: number;
            version?: string;
            message?: string;
            limit?: 'output' | 'cpu';
          } & RunResult,
        ) => {
          if (message.type === 'ready') resolve(message.version!);
          else if (message.type === 'failed')
            reject(new Error(`cannot start ${this.name} runtime: ${message.message}`));
          else if (message.type === 'result') {
            const pending = this.pending.get(message.id!);
            if (!pending) return;
            clearTimeout(pending.timer);
            this.pending.delete(message.id!);
            if (message.limit === 'output') pending.resolve('output-limit');
            else if (message.limit === 'cpu') pending.resolve('cpu-limit');
            else pending.resolve({ status: message.status, stdout: message.stdout, stderr: message.stderr });
          }
        },
      );
      child.on('exit', (code) => {
        if (this.child === child) {
          this.child = undefined;
          this.ready = undefined;
        }
        reject(new Error(`the ${this.name} runtime exited (${code}) before it was ready:\n${stderr.slice(-2000)}`));
        for (const [id, pending] of this.pending) {
          clearTimeout(pending.timer);
          this.pending.delete(id);
          pending.resolve({
            status: -1,
            stdout: '',
            stderr: `the ${this.name} runtime exited (${code}):\n${stderr.slice(-2000)}`,
          });
        }
      });
      const fixtures = readFixtures(this.fixturesDir);
      child.send({
        type: 'init',
        runtime: this.name,
        script,
        fixtures,
        outputLimitBytes: this.options.outputLimitBytes,
        cpuTimeMs: this.options.cpuTimeMs,
        ...(files ? { pyodide: { files, lock } } : {}),
      });
    });
  }

  /**
   * Runs one example; 'timeout' when it ran past `timeoutMs` by the clock (the runtime is then
   * restarted on the next run), 'cpu-limit' past its CPU time, 'output-limit' when it printed more
   * than the runtime's output limit.
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
    if (this.child === child) {
      this.child = undefined;
      this.ready = undefined;
    }
    killTree(child);
  }

  close(): void {
    this.closed = true;
    if (this.child) killTree(this.child);
    this.child = undefined;
    this.ready = undefined;
  }
}

/** Ends the host's whole tree (its launcher's process group; the sandbox dies with its parent). */
function killTree(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/**
 * The book's fixtures, sent to the host (it cannot read the book): the folder's regular files.
 * A link is not followed (the check hands over a folder of validated copies, see check-book.ts).
 */
function readFixtures(folder: string): Array<{ name: string; bytes: Uint8Array }> {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ name, bytes: readFileSync(path.join(folder, name)) }));
}
