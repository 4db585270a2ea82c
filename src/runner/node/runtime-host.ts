/**
 * A child process of `pybook check` that runs examples in the reader's runtimes under Node:
 * `python` loads Pyodide (the npm package the site ships) once and runs every example through
 * the same PythonSession as the page's worker; `javascript` evaluates the page's own sandbox
 * worker bundle in a fresh worker thread per example, with its realm's own web globals and
 * nothing of Node's (no require, no process). A separate process, so that a runaway example can be
 * killed, and so that Pyodide can be given stack switching (a V8 flag, see runtimes.ts).
 *
 * Messages: in {type: 'init', ...} then {type: 'run', id, source, filename};
 * out {type: 'ready', version} and {type: 'result', id, status, stdout, stderr}.
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { pyodideFolder } from '../browser-check-file.js';
import { PythonSession, type Fixture } from '../python-session.js';

interface InitMessage { type: 'init'; runtime: 'python' | 'javascript'; fixturesDir: string; sandboxScript?: string }
interface RunMessage { type: 'run'; id: number; source: string; filename: string }

const send = (message: unknown) => process.send!(message);

function readFixtures(folder: string): Fixture[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter((name) => statSync(path.join(folder, name)).isFile()).map((name) => ({ name, bytes: readFileSync(path.join(folder, name)) }));
}

async function startPython(fixturesDir: string): Promise<(run: RunMessage) => Promise<void>> {
  const { loadPyodide } = await import('pyodide');
  const indexURL = pyodideFolder() + path.sep;
  const pyodide = await loadPyodide({ indexURL });
  const session = new PythonSession(pyodide, readFixtures(fixturesDir));
  send({ type: 'ready', version: session.pythonVersion });
  return async ({ id, source, filename }) => {
    let stdout = '';
    let stderr = '';
    const status = await session.run(source, filename, { stdout: (t) => { stdout += t; }, stderr: (t) => { stderr += t; } });
    send({ type: 'result', id, status, stdout, stderr });
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

function startJavaScript(sandboxScript: string): (run: RunMessage) => Promise<void> {
  send({ type: 'ready', version: `Node ${process.versions.node} sandbox` });
  return ({ id, source }) => new Promise<void>((resolve) => {
    let stdout = '';
    let stderr = '';
    const thread = new Worker(SANDBOX_THREAD, { eval: true, workerData: { script: sandboxScript, source }, stdout: true, stderr: true });
    let done = false;
    const end = (status: number, extra = '') => {
      if (done) return;
      done = true;
      send({ type: 'result', id, status, stdout, stderr: stderr + extra });
      void thread.terminate();
      resolve();
    };
    thread.on('message', (message: { type: string; text?: string; status?: number }) => {
      if (message.type === 'stdout') stdout += message.text;
      else if (message.type === 'stderr') stderr += message.text;
      else if (message.type === 'exit') end(message.status ?? 1);
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
        runner = message.runtime === 'python' ? await startPython(message.fixturesDir) : startJavaScript(message.sandboxScript!);
      } catch (error) {
        send({ type: 'failed', message: (error as Error).stack ?? String(error) });
      }
    })();
    return;
  }
  // One example at a time: they share the interpreter.
  queue = queue.then(() => runner!(message)).catch((error: unknown) => {
    send({ type: 'result', id: message.id, status: -1, stdout: '', stderr: `the runtime failed: ${(error as Error).stack ?? String(error)}` });
  });
});
