/**
 * The page's Python: a module worker that loads Pyodide from the site itself (never a CDN) on
 * the first Run and then runs examples one after another through the same PythonSession as
 * `pybook check`. The page terminates the worker to stop a run; the next run starts a new one.
 *
 * Messages in: {type: 'run', id, source, setup}. Out: {type: 'progress', loaded, total},
 * {type: 'starting'}, {type: 'running', id}, {type: 'stdout' | 'stderr', id, text},
 * {type: 'exit', id, status}, {type: 'failed', message}.
 */
import type { PyodideAPI } from 'pyodide';
import { PythonSession, type Fixture } from '../../runner/python-session.js';

export interface PythonSetup {
  indexUrl: string;
  downloads: Array<{ url: string; bytes: number }>;
  lock: string;
  fixtures: Array<{ name: string; url: string }>;
}

interface RunMessage { type: 'run'; id: number; source: string; setup: PythonSetup }

const scope = globalThis as unknown as { postMessage(message: unknown): void; onmessage: ((event: MessageEvent<RunMessage>) => void) | null };
const post = (message: unknown) => scope.postMessage(message);

/**
 * Fetches Pyodide's big files, counting the bytes as they arrive (honest progress: the sizes are
 * the files' own, from the build), and keeps them in memory for Pyodide (see servedFrom).
 */
async function download(setup: PythonSetup): Promise<Map<string, Uint8Array>> {
  const total = setup.downloads.reduce((sum, d) => sum + d.bytes, 0);
  let loaded = 0;
  let reported = 0;
  const files = new Map<string, Uint8Array>();
  await Promise.all(setup.downloads.map(async ({ url }) => {
    const response = await fetch(url);
    if (!response.ok || !response.body) throw new Error(`${url}: HTTP ${response.status}`);
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.length;
      if (loaded - reported > total / 50) { reported = loaded; post({ type: 'progress', loaded: Math.min(loaded, total), total }); }
    }
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let offset = 0;
    for (const chunk of chunks) { bytes.set(chunk, offset); offset += chunk.length; }
    files.set(new URL(url, location.href).href, bytes);
  }));
  post({ type: 'progress', loaded: total, total });
  return files;
}

/**
 * Runs `load` with Pyodide's own requests for the files just downloaded answered from memory, so
 * that nothing is fetched twice (a browser need not keep a 10 MB response in its HTTP cache).
 */
async function servedFrom<T>(files: Map<string, Uint8Array>, load: () => Promise<T>): Promise<T> {
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href).href;
    const bytes = files.get(url);
    if (!bytes) return realFetch(input, init);
    files.delete(url);
    const type = url.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
    return Promise.resolve(new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'Content-Type': type } }));
  };
  try {
    return await load();
  } finally {
    globalThis.fetch = realFetch;
  }
}

async function start(setup: PythonSetup): Promise<PythonSession> {
  const files = await download(setup);
  post({ type: 'starting' });
  const [{ loadPyodide }, fixtures] = await Promise.all([
    import(/* @vite-ignore */ `${setup.indexUrl}pyodide.mjs`) as Promise<{ loadPyodide(options: object): Promise<PyodideAPI> }>,
    Promise.all(setup.fixtures.map(async ({ name, url }): Promise<Fixture> => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      return { name, bytes: new Uint8Array(await response.arrayBuffer()) };
    })),
  ]);
  const pyodide = await servedFrom(files, () => loadPyodide({ indexURL: setup.indexUrl, lockFileContents: setup.lock }));
  return new PythonSession(pyodide, fixtures);
}

let session: Promise<PythonSession> | undefined;
let queue: Promise<unknown> = Promise.resolve();

scope.onmessage = ({ data }) => {
  if (data.type !== 'run') return;
  session ??= start(data.setup);
  // One run at a time: they share the interpreter.
  queue = queue.then(async () => {
    let ready: PythonSession;
    try {
      ready = await session!;
    } catch (error) {
      session = undefined;
      post({ type: 'failed', id: data.id, message: (error as Error).message });
      return;
    }
    post({ type: 'running', id: data.id });
    const status = await ready.run(data.source, 'example.py', {
      stdout: (text) => post({ type: 'stdout', id: data.id, text }),
      stderr: (text) => post({ type: 'stderr', id: data.id, text }),
    });
    post({ type: 'exit', id: data.id, status });
  });
};
