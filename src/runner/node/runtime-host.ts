/**
 * A child process of `pybook check` that runs examples in the reader's runtimes under Node:
 * `python` loads Pyodide (the npm package the site ships) once and runs every example through
 * the same PythonSession as the page's worker; `javascript` evaluates the page's own sandbox
 * worker bundle in a fresh `vm` context per example, with the globals a Worker has and nothing
 * of Node's (no require, no process). A separate process, so that a runaway example can be
 * killed, and so that Pyodide can be given stack switching (a V8 flag, see runtimes.ts).
 *
 * Messages: in {type: 'init', ...} then {type: 'run', id, source, filename};
 * out {type: 'ready', version} and {type: 'result', id, status, stdout, stderr}.
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
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

/** What a dedicated Worker offers a program that the sandbox relies on; Node's own objects stay out. */
const WORKER_GLOBALS = [
  'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'structuredClone',
  'URL', 'URLSearchParams', 'TextEncoder', 'TextDecoder', 'atob', 'btoa', 'performance', 'crypto',
  'AbortController', 'AbortSignal', 'Event', 'EventTarget', 'Blob',
] as const;

function startJavaScript(sandboxScript: string): (run: RunMessage) => Promise<void> {
  const script = new vm.Script(sandboxScript, { filename: 'sandbox-worker.js' });
  let reportRejection: ((reason: unknown) => void) | undefined;
  // A promise rejected with no handler in the example's realm surfaces here, as it would end `node`.
  process.on('unhandledRejection', (reason) => reportRejection?.(reason));
  send({ type: 'ready', version: `Node ${process.versions.node} sandbox` });
  return ({ id, source }) => new Promise<void>((resolve) => {
    let stdout = '';
    let stderr = '';
    const scope: Record<string, unknown> = {};
    for (const name of WORKER_GLOBALS) scope[name] = (globalThis as Record<string, unknown>)[name];
    scope.postMessage = (message: { type: string; text?: string; status?: number }) => {
      if (message.type === 'stdout') stdout += message.text;
      else if (message.type === 'stderr') stderr += message.text;
      else if (message.type === 'exit') {
        reportRejection = undefined;
        send({ type: 'result', id, status: message.status, stdout, stderr });
        resolve();
      }
    };
    const context = vm.createContext(scope);
    vm.runInContext('globalThis.self = globalThis;', context);
    script.runInContext(context);
    const listeners = scope as { onmessage?: (event: { data: { source: string } }) => void };
    reportRejection = (reason) => (scope.__pybookReportUncaught as ((r: unknown) => void) | undefined)?.(reason);
    listeners.onmessage?.({ data: { source } });
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
