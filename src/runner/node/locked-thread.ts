/**
 * The realm the reader's runtimes run in under `pybook check`: a worker thread that looks like a
 * browser's Worker and has nothing of Node's. Before the page's worker script is evaluated, the
 * bootstrap below takes what it needs for itself (the message port), deletes every global that
 * reaches Node (process, Buffer, require and the rest), and registers a module hook that refuses
 * every import except the page's own modules (Pyodide's two, handed over as data: URLs); then the
 * script runs, as in the page. Python's `js` module is this realm's globalThis, so neither
 * Python nor JavaScript can name `process`, `require` or a `node:` module from it.
 *
 * The host process around the thread is confined like every example (see check/confine): this is
 * the inner wall, that the outer one.
 */

/** Refuses every module specifier but the allowed ones (the page's own modules). */
const IMPORT_HOOK = `
let allowed = new Set();
export async function initialize(urls) { allowed = new Set(urls); }
export async function resolve(specifier, context, next) {
  if (allowed.has(specifier)) return next(specifier, context);
  throw new TypeError("Failed to resolve module specifier " + JSON.stringify(specifier));
}`;

/** Globals of Node that a browser Worker does not have; some reach Node's internals. */
const NODE_GLOBALS = [
  'process',
  'require',
  'module',
  'exports',
  '__filename',
  '__dirname',
  'setImmediate',
  'clearImmediate',
  'fetch',
  'WebSocket',
  'navigator',
  'EventSource',
  'BroadcastChannel',
  'MessageChannel',
  'MessagePort',
  'Worker',
];

/**
 * The bootstrap, evaluated as the thread's script (workerData: { script, modules: [{ name, url }] }).
 * Messages from the host go to the script's onmessage; a 'file' message's bytes become the Blob
 * the page would hand over, and one of the page's modules gets its data: URL from createObjectURL.
 */
/**
 * Node's web classes (Response, which Pyodide's loading uses) need these two while it loads:
 * they go before the first program runs.
 */
const LATE_GLOBALS = ['Buffer', 'global'];

export const LOCKED_THREAD = `'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { register } = require('node:module');
const host = process;
const modules = new Map(workerData.modules.map((m) => [m.name, m.url]));
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(IMPORT_HOOK)}), { data: [...modules.values()] });
const report = (error) => {
  if (typeof globalThis.__pybookReportUncaught === 'function') globalThis.__pybookReportUncaught(error);
  else parentPort.postMessage({ type: 'crashed', message: String(error && error.stack || error) });
};
host.on('uncaughtException', report);
host.on('unhandledRejection', report);
// Node loads its web classes (undici) on first use, with code that needs \`global\`: load them now.
void [Response, Request, Headers, FormData, Blob, fetch];
for (const name of ${JSON.stringify(NODE_GLOBALS)}) {
  try { delete globalThis[name]; } catch {}
}
globalThis.self = globalThis;
// A Worker's own URL (Pyodide resolves its file names against it; every request is answered in the thread).
globalThis.location = new URL('https://pyodide.invalid/worker.js');
// Pyodide takes this realm for a Worker's when \`self instanceof WorkerGlobalScope\`.
function WorkerGlobalScope() {}
Object.defineProperty(WorkerGlobalScope, Symbol.hasInstance, { value: (value) => value === globalThis });
globalThis.WorkerGlobalScope = WorkerGlobalScope;
const moduleUrls = new WeakMap();
const createObjectURL = URL.createObjectURL;
URL.createObjectURL = (blob) => moduleUrls.get(blob) || createObjectURL(blob);
globalThis.postMessage = (message) => parentPort.postMessage(message);
(0, eval)(workerData.script);
let running = false;
parentPort.on('message', (data) => {
  if (data && data.type === 'run' && !running) {
    running = true;
    for (const name of ${JSON.stringify(LATE_GLOBALS)}) {
      try { delete globalThis[name]; } catch {}
    }
  }
  if (data && data.type === 'file') {
    const file = new Blob([data.bytes], modules.has(data.name) ? { type: 'text/javascript' } : {});
    if (modules.has(data.name)) moduleUrls.set(file, modules.get(data.name));
    data = { type: 'file', name: data.name, file };
  }
  globalThis.onmessage({ data });
});
`;

/** A module's source as the data: URL the thread may import (and nothing else). */
export const moduleUrlOf = (source: string | Uint8Array) =>
  `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`;
