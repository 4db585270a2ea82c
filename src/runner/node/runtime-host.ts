/**
 * A child process of `pybook check` that runs examples in the reader's runtimes under Node:
 * `python` loads Pyodide (the npm package the site ships) once and runs every example through
 * the same PythonSession as the page's worker; `javascript` evaluates the page's own sandbox
 * worker bundle in a fresh worker thread per example, with its realm's own web globals and
 * nothing of Node's (no require, no process). A separate process, so that a runaway example can be
 * killed, and so that Pyodide can be given stack switching (a V8 flag, see runtimes.ts).
 *
 * Messages: in {type: 'init', ...} then {type: 'run', id, source, filename};
 * out {type: 'ready', version} and {type: 'result', id, status, stdout, stderr, outputLimit?}.
 * `outputLimit` says the example printed more than `outputLimitBytes` (init): its output was
 * cut there and the example stopped (in Pyodide its next write raised an error).
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { pyodideFolder } from '../browser-check-file.js';
import { precompressedPyodide } from '../pyodide-precompressed.js';
import { PythonSession, type Fixture } from '../python-session.js';

interface InitMessage { type: 'init'; runtime: 'python' | 'javascript'; fixturesDir: string; sandboxScript?: string; outputLimitBytes: number }
interface RunMessage { type: 'run'; id: number; source: string; filename: string }

const send = (message: unknown) => process.send!(message);

/** Thrown from an output callback once the cap is passed, to stop the program. */
class OutputLimitReached extends Error {}

/**
 * One run's printed text, kept up to `limit` bytes (stdout and stderr together): a program that
 * prints without end would otherwise grow a string past what V8 allows.
 */
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
      this[stream] += Buffer.from(text).subarray(0, this.limit - this.bytes).toString('utf8');
      this.bytes = this.limit;
      this.exceeded = true;
      return false;
    }
    this.bytes += size;
    this[stream] += text;
    return true;
  }
}

/** The last line of an error's message, e.g. "OSError: [Errno 29] I/O error": not the runtime's internal stack. */
const lastLineOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).trimEnd().split('\n').slice(-1)[0];

function readFixtures(folder: string): Fixture[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter((name) => statSync(path.join(folder, name)).isFile()).map((name) => ({ name, bytes: readFileSync(path.join(folder, name)) }));
}

async function startPython(fixturesDir: string, outputLimitBytes: number): Promise<(run: RunMessage) => Promise<void>> {
  const { loadPyodide } = await import('pyodide');
  const indexURL = pyodideFolder() + path.sep;
  // The standard library the site serves (repacked with bytecode at install), when it was made:
  // a module loaded from bytecode has a `.pyc` __file__, and the check must see what the page sees.
  const stdLibURL = precompressedPyodide().get('python_stdlib.zip')?.replacement?.source;
  const pyodide = await loadPyodide({ indexURL, ...(stdLibURL ? { stdLibURL } : {}) });
  const session = new PythonSession(pyodide, readFixtures(fixturesDir));
  send({ type: 'ready', version: session.pythonVersion });
  return async ({ id, source, filename }) => {
    const output = new CappedOutput(outputLimitBytes);
    const keep = (stream: 'stdout' | 'stderr') => (text: string) => {
      if (!output.add(stream, text)) throw new OutputLimitReached();
    };
    let status: number;
    try {
      status = await session.run(source, filename, { stdout: keep('stdout'), stderr: keep('stderr') });
    } catch (error) {
      // Pyodide itself failed (not the program, whose exceptions the harness reports as Python does).
      if (!output.exceeded) output.stderr += `Pyodide failed while running ${filename}: ${lastLineOf(error)}\n`;
      status = -1;
    }
    send({ type: 'result', id, status, stdout: output.stdout, stderr: output.stderr, outputLimit: output.exceeded });
  };
}

/**
 * A worker thread per example (a fresh realm, like the page's fresh Worker): its web globals
 * (URL, TextEncoder, structuredClone, crypto, timers…) are its realm's own, as in a browser; what
 * only Node has is deleted before the sandbox script loads. The script is the page's own bundle.
 */
const SANDBOX_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
// A browser Worker cannot import modules such as node:fs: neither can the program here.
require('node:module').register('data:text/javascript,' + encodeURIComponent('export async function resolve(s) { throw new TypeError("Failed to resolve module specifier " + JSON.stringify(s)); }'));
const host = process;
const report = (error) => globalThis.__pybookReportUncaught(error);
host.on('uncaughtException', report);
host.on('unhandledRejection', report);
for (const name of ['process', 'Buffer', 'global', 'require', 'module', 'exports', '__filename', '__dirname', 'setImmediate', 'clearImmediate', 'fetch', 'WebSocket', 'navigator']) {
  try { delete globalThis[name]; } catch {}
}
globalThis.self = globalThis;
globalThis.postMessage = (message) => parentPort.postMessage(message);
(0, eval)(workerData.script);
globalThis.onmessage({ data: { source: workerData.source } });
`;

function startJavaScript(sandboxScript: string, outputLimitBytes: number): (run: RunMessage) => Promise<void> {
  send({ type: 'ready', version: `Node ${process.versions.node} sandbox` });
  return ({ id, source }) => new Promise<void>((resolve) => {
    const output = new CappedOutput(outputLimitBytes);
    const thread = new Worker(SANDBOX_THREAD, { eval: true, workerData: { script: sandboxScript, source }, stdout: true, stderr: true });
    let done = false;
    const end = (status: number, extra = '') => {
      if (done) return;
      done = true;
      send({ type: 'result', id, status, stdout: output.stdout, stderr: output.stderr + extra, outputLimit: output.exceeded });
      void thread.terminate();
      resolve();
    };
    thread.on('message', (message: { type: string; text?: string; status?: number }) => {
      if (message.type === 'stdout' || message.type === 'stderr') {
        if (!output.add(message.type, message.text ?? '')) end(-1);
      } else if (message.type === 'exit') end(message.status ?? 1);
    });
    thread.on('error', (error) => end(1, `Uncaught ${String(error)}\n`));
    thread.on('exit', () => end(1, 'the sandbox thread ended before the program did\n'));
  });
}

let runner: ((run: RunMessage) => Promise<void>) | undefined;
let queue = Promise.resolve();
process.on('message', (message: InitMessage | RunMessage) => {
  if (message.type === 'init') {
    void (async () => {
      try {
        runner = message.runtime === 'python' ? await startPython(message.fixturesDir, message.outputLimitBytes) : startJavaScript(message.sandboxScript!, message.outputLimitBytes);
      } catch (error) {
        send({ type: 'failed', message: lastLineOf(error) });
      }
    })();
    return;
  }
  // One example at a time: they share the interpreter.
  queue = queue.then(() => runner!(message)).catch((error: unknown) => {
    send({ type: 'result', id: message.id, status: -1, stdout: '', stderr: `the ${message.filename} run failed in its runtime: ${lastLineOf(error)}\n` });
  });
});
