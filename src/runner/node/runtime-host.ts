/**
 * A child process of `pybook check` that runs examples in the reader's runtimes under Node. It
 * is started confined like every example (its own namespaces, a read-only view of nothing but
 * Node and this script, no environment, nobody as its user: see check/confine), and bundled into
 * one file that imports nothing but Node's own modules. The runtimes run in worker threads
 * without Node (locked-thread.ts), each with the page's own worker script:
 * - `python`: the page's python-worker with Pyodide's files as the page hands them over; one
 *   interpreter runs example after example (reset between them), and is replaced after a run
 *   ended at a limit, crashed or reached JavaScript (the page does the same);
 * - `javascript`: the page's sandbox worker, a fresh thread per example.
 * This main thread keeps each run to its CPU time (process.cpuUsage, which a busy machine does
 * not inflate) and its output cap; the check keeps a wall-clock backstop.
 *
 * Messages (IPC, structured clone): in {type: 'init', ...InitMessage} then {type: 'run', id, source, filename};
 * out {type: 'ready', version}, {type: 'failed', message}, and
 * {type: 'result', id, status, stdout, stderr, limit?: 'output' | 'cpu'}.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { LOCKED_THREAD, moduleUrlOf } from './locked-thread.js';

interface InitMessage {
  type: 'init';
  runtime: 'python' | 'javascript';
  /** The page's worker script for this runtime. */
  script: string;
  /** Pyodide's files by name (python only), and its lock file's header. */
  pyodide?: { files: Array<{ name: string; bytes: Uint8Array }>; lock: string };
  fixtures: Array<{ name: string; bytes: Uint8Array }>;
  outputLimitBytes: number;
  cpuTimeMs: number;
}
interface RunMessage {
  type: 'run';
  id: number;
  source: string;
  filename: string;
}

const send = (message: unknown) => process.send!(message);

/** The modules of Pyodide's that the python thread imports (from data: URLs). */
const PYODIDE_MODULES = ['pyodide.mjs', 'pyodide.asm.mjs'];

/** One run's printed text, kept up to `limit` bytes (stdout and stderr together). */
class CappedOutput {
  stdout = '';
  stderr = '';
  exceeded = false;
  private bytes = 0;

  constructor(private readonly limit: number) {}

  /** Keeps the text (what fits); false once the cap is passed. */
  add(stream: 'stdout' | 'stderr', text: string): boolean {
    if (this.exceeded) return false;
    const size = Buffer.byteLength(text);
    if (this.bytes + size > this.limit) {
      this[stream] += Buffer.from(text)
        .subarray(0, this.limit - this.bytes)
        .toString('utf8');
      this.bytes = this.limit;
      this.exceeded = true;
      return false;
    }
    this.bytes += size;
    this[stream] += text;
    return true;
  }
}

/** CPU time this whole process has used, in ms: where a thread's own cannot be read. */
const processCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const CPU_POLL_MS = 50;
/** Linux counts a thread's CPU time in clock ticks of 1/100 s (USER_HZ). */
const MS_PER_TICK = 10;

const threadIds = () => (existsSync('/proc/self/task') ? new Set(readdirSync('/proc/self/task')) : new Set<string>());

/** A thread's CPU time in ms (user + system), from /proc/self/task/<tid>/stat. */
function threadCpuMs(tid: string): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is the 3rd, utime the 14th, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
}

/** A program's JavaScript heap, as for node examples (--max-old-space-size): past it the thread dies, not the host. */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 1024 };

/** A locked thread, and a clock of the CPU time it alone used (not WebAssembly compiling in the background, not the host). */
interface RuntimeThread {
  worker: Worker;
  cpuMs: () => number;
}

/** How a run ended; `retire`: its interpreter is not to run another program (python-harness.ts). */
type Ended = { status: number; limit?: 'output' | 'cpu'; error?: string; retire?: boolean };

/**
 * Runs one program in `thread` (already started): resolves when it exits, prints past the cap,
 * uses up its CPU time, or the thread dies. The thread is terminated in every case but the first.
 */
function runIn(
  { worker: thread, cpuMs }: RuntimeThread,
  message: unknown,
  output: CappedOutput,
  cpuTimeMs: number,
): Promise<Ended> {
  return new Promise((resolve) => {
    const startedCpu = cpuMs();
    let settled = false;
    const end = (ended: Ended, terminate: boolean) => {
      if (settled) return;
      settled = true;
      clearInterval(watch);
      thread.off('message', onMessage);
      thread.off('exit', onExit);
      thread.off('error', onError);
      if (terminate) void thread.terminate();
      resolve(ended);
    };
    const watch = setInterval(() => {
      if (cpuMs() - startedCpu > cpuTimeMs) end({ status: -1, limit: 'cpu' }, true);
    }, CPU_POLL_MS);
    const onMessage = (data: {
      type: string;
      text?: string;
      status?: number;
      message?: string;
      reusable?: boolean;
    }) => {
      if (data.type === 'stdout' || data.type === 'stderr') {
        if (!output.add(data.type, data.text ?? '')) end({ status: -1, limit: 'output' }, true);
      } else if (data.type === 'exit') end({ status: data.status ?? 1, retire: data.reusable !== true }, false);
      else if (data.type === 'crashed') end({ status: -1, error: data.message }, true);
    };
    const onExit = () => end({ status: -1, error: "the runtime's thread ended before the program did" }, false);
    const onError = (error: Error) => end({ status: -1, error: String(error) }, true);
    thread.on('message', onMessage);
    thread.on('exit', onExit);
    thread.on('error', onError);
    thread.postMessage(message);
  });
}

/** Starts a locked thread; resolves once it runs, with its CPU clock (the one thread that appeared with it). */
function lockedThread(script: string, modules: Array<{ name: string; url: string }>): Promise<RuntimeThread> {
  const before = threadIds();
  const worker = new Worker(LOCKED_THREAD, {
    eval: true,
    workerData: { script, modules },
    stdout: true,
    stderr: true,
    resourceLimits: THREAD_LIMITS,
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('online', () => {
      worker.off('error', reject);
      const added = [...threadIds()].filter((tid) => !before.has(tid));
      resolve({ worker, cpuMs: added.length === 1 ? () => threadCpuMs(added[0]) : processCpuMs });
    });
  });
}

/** The python runtime: one interpreter in a locked thread, started again after it was ended. */
class PythonRuntime {
  private thread?: Promise<RuntimeThread>;
  private readonly modules: Array<{ name: string; url: string }>;

  constructor(private readonly init: InitMessage) {
    const files = init.pyodide?.files ?? [];
    this.modules = PYODIDE_MODULES.map((name) => ({
      name,
      url: moduleUrlOf(files.find((f) => f.name === name)?.bytes ?? ''),
    }));
  }

  /** Starts an interpreter (once until it is ended); resolves when it is ready, with the thread. */
  start(): Promise<RuntimeThread> {
    this.thread ??= lockedThread(this.init.script, this.modules).then(
      (locked) =>
        new Promise<RuntimeThread>((resolve, reject) => {
          const thread = locked.worker;
          const { pyodide, fixtures } = this.init;
          const onMessage = (data: { type: string; message?: string }) => {
            if (data.type === 'ready') {
              thread.off('message', onMessage);
              resolve(locked);
            }
            if (data.type === 'load-failed' || data.type === 'crashed') {
              void thread.terminate();
              reject(new Error(data.message));
            }
          };
          thread.on('message', onMessage);
          thread.once('error', reject);
          thread.once('exit', (code) => reject(new Error(`the Python thread ended (${code}) before it was ready`)));
          const fileNames = (pyodide?.files ?? []).map((f) => f.name);
          thread.postMessage({
            type: 'load',
            fileNames,
            lock: pyodide?.lock ?? '{}',
            fixtures: fixtures.map(({ name, bytes }) => ({ name, bytes: new Uint8Array(bytes).buffer })),
          });
          for (const file of pyodide?.files ?? [])
            thread.postMessage({ type: 'file', name: file.name, bytes: file.bytes });
        }),
    );
    this.thread.catch(() => {
      this.thread = undefined;
    });
    return this.thread;
  }

  /** The interpreter's Python version, from a run of its own. */
  async version(): Promise<string> {
    const output = new CappedOutput(1024);
    const ended = await runIn(
      await this.start(),
      { type: 'run', source: 'import sys\nprint(sys.version.split()[0])', stdin: '' },
      output,
      this.init.cpuTimeMs,
    );
    if (ended.status !== 0) throw new Error(ended.error ?? output.stderr);
    return output.stdout.trim();
  }

  async run(source: string, output: CappedOutput): Promise<Ended> {
    const thread = await this.start();
    const ended = await runIn(thread, { type: 'run', source, stdin: '' }, output, this.init.cpuTimeMs);
    // What a run ended at a limit left in the interpreter (or its buffers) would show in the next,
    // as would what a program that reached JavaScript left there.
    if (ended.limit || ended.error || ended.retire) {
      this.thread = undefined;
      void thread.worker.terminate();
    }
    return ended;
  }
}

/** The JavaScript runtime: the page's sandbox worker in a fresh locked thread per example. */
class JavaScriptRuntime {
  constructor(private readonly init: InitMessage) {}

  async run(source: string, output: CappedOutput): Promise<Ended> {
    const thread = await lockedThread(this.init.script, []);
    return runIn(thread, { type: 'run', source }, output, this.init.cpuTimeMs).finally(
      () => void thread.worker.terminate(),
    );
  }
}

let runtime: PythonRuntime | JavaScriptRuntime | undefined;
let init: InitMessage | undefined;
let queue = Promise.resolve();

async function start(message: InitMessage): Promise<void> {
  init = message;
  if (message.runtime === 'python') {
    const python = new PythonRuntime(message);
    runtime = python;
    send({ type: 'ready', version: await python.version() });
  } else {
    runtime = new JavaScriptRuntime(message);
    send({ type: 'ready', version: `Node ${process.versions.node} sandbox` });
  }
}

/** The last line of an error's message, e.g. "OSError: [Errno 29] I/O error": not the runtime's internal stack. */
const lastLineOf = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).trimEnd().split('\n').slice(-1)[0];

async function run({ id, source, filename }: RunMessage): Promise<void> {
  const output = new CappedOutput(init!.outputLimitBytes);
  const ended = await runtime!.run(source, output);
  if (ended.error) output.stderr += `the ${filename} run failed in its runtime: ${lastLineOf(ended.error)}\n`;
  send({
    type: 'result',
    id,
    status: ended.status,
    stdout: output.stdout,
    stderr: output.stderr,
    ...(ended.limit ? { limit: ended.limit } : {}),
  });
}

process.on('message', (message: InitMessage | RunMessage) => {
  if (message.type === 'init') {
    start(message).catch((error: unknown) => send({ type: 'failed', message: lastLineOf(error) }));
    return;
  }
  // One example at a time: they share the interpreter.
  queue = queue
    .then(() => run(message))
    .catch((error: unknown) => {
      send({
        type: 'result',
        id: message.id,
        status: -1,
        stdout: '',
        stderr: `the ${message.filename} run failed in its runtime: ${lastLineOf(error)}\n`,
      });
    });
});
