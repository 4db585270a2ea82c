/**
 * The page's Python: a worker the sandbox (sandbox-host.ts) starts from a blob URL, with
 * no network (its CSP forbids every request): the 'load' message names Pyodide's files, which
 * then arrive as Blobs, one 'file' message each as the page's downloads finish; its two modules
 * are imported from blob URLs as they arrive, and its requests for the wasm and the standard
 * library are answered from those Blobs, so it starts on the first while the others download.
 * Programs run one at a time through the same PythonSession as
 * `pybook check`. The next run takes the same interpreter, reset by the harness (fresh
 * modules, globals, folder and copy of the fixtures), unless this run reached JavaScript or
 * crashed: then its 'exit' says reusable: false and the page starts a new worker.
 *
 * Messages in: {type: 'load', fileNames, lock, fixtures}, {type: 'file', name, file} for each of
 * fileNames, then {type: 'run', source, stdin, limits}.
 * Out: {type: 'ready'} or {type: 'load-failed', message}; {type: 'stdout' | 'stderr', text} in
 * batches, {type: 'truncated'}, {type: 'exit', status, reusable}.
 */
import type { PyodideAPI } from 'pyodide';
import { PythonSession } from '../shared/python-session.js';
import { ArrivingFiles } from './arriving-files.js';
import { OutputBatch, type OutputLimits } from './output-batch.js';
import type { FixtureFile, FileMessage } from './protocol.js';
import { takePostMessage } from './worker-channel.js';
import { mark } from './timeline-marks.js';

interface LoadMessage {
  type: 'load';
  fileNames: string[];
  lock: string;
  fixtures: FixtureFile[];
}
interface RunMessage {
  type: 'run';
  source: string;
  stdin: string;
  limits: OutputLimits;
}

/** Where Pyodide believes its files are; no request for it ever leaves the worker (see answeredFrom). */
const INDEX_URL = 'https://pyodide.invalid/';

type LoadPyodide = (options: object) => Promise<PyodideAPI>;

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<LoadMessage | FileMessage | RunMessage>) => void) | null;
};
const post = takePostMessage(globalThis);

/** A blob URL of one of Pyodide's modules, typed as JavaScript (the same Blob when it already is). */
const moduleUrl = (file: Blob) =>
  URL.createObjectURL(file.type === 'text/javascript' ? file : new Blob([file], { type: 'text/javascript' }));

/**
 * Runs `load` with Pyodide's requests for its own files answered from the Blobs the page hands
 * over, as each arrives (the wasm is then compiled as it is read); any other request fails.
 */
async function answeredFrom<T>(files: ArrivingFiles, load: () => Promise<T>): Promise<T> {
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : String(input);
    const file = url.startsWith(INDEX_URL) ? files.get(url.slice(INDEX_URL.length)) : undefined;
    if (!file) return Promise.reject(new TypeError(`the sandbox has no network: ${url}`));
    const type = url.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
    return file.then((body) => new Response(body, { headers: { 'Content-Type': type } }));
  };
  try {
    return await load();
  } finally {
    globalThis.fetch = realFetch;
  }
}

/** Pyodide's files, announced by the 'load' message and then arriving one message each. */
let files: ArrivingFiles | undefined;

/** One of Pyodide's modules, imported from a blob URL once it has arrived. */
async function importArriving<T>(name: string): Promise<T> {
  const file = await files?.get(name);
  if (!file) throw new Error(`${name} is missing from the runtime's files`);
  return import(/* @vite-ignore */ moduleUrl(file)) as Promise<T>;
}

async function start({ lock, fixtures }: LoadMessage): Promise<PythonSession> {
  mark('load message');
  const [{ loadPyodide }, { default: createPyodideModule }] = await Promise.all([
    importArriving<{ loadPyodide: LoadPyodide }>('pyodide.mjs'),
    importArriving<{ default: unknown }>('pyodide.asm.mjs'),
  ]);
  mark('modules imported');
  const pyodide = await answeredFrom(files!, () =>
    loadPyodide({
      indexURL: INDEX_URL,
      lockFileContents: lock,
      createPyodideModule,
      // Called once the wasm is instantiated and the standard library mounted, before Python starts.
      fsInit: () => {
        mark('file system ready');
        return Promise.resolve();
      },
    }),
  );
  mark('pyodide loaded');
  const session = new PythonSession(
    pyodide,
    fixtures.map(({ name, bytes }) => ({ name, bytes: new Uint8Array(bytes) })),
  );
  mark('harness ready');
  return session;
}

let session: Promise<PythonSession> | undefined;

scope.onmessage = ({ data }) => {
  if (data.type === 'load' && !session) {
    files = new ArrivingFiles(Array.isArray(data.fileNames) ? data.fileNames : []);
    session = start(data);
    session.then(
      () => post({ type: 'ready' }),
      (error: unknown) => post({ type: 'load-failed', message: (error as Error).message }),
    );
    return;
  }
  if (data.type === 'file') {
    mark(`arrived ${data.name}`);
    files?.arrived(data.name, data.file);
    return;
  }
  if (data.type !== 'run' || !session) return;
  void session.then(async (ready) => {
    mark('run');
    const output = new OutputBatch(post, data.limits);
    let printed = false;
    let crashed = false;
    let status: number;
    try {
      status = await ready.run(
        data.source,
        'example.py',
        {
          stdout: (text) => {
            if (!printed) {
              printed = true;
              mark('first output');
            }
            output.write('stdout', text);
          },
          stderr: (text) => output.write('stderr', text),
        },
        data.stdin,
      );
    } catch (error) {
      // The interpreter itself failed (the program's own exceptions the harness reports as Python
      // does): say so, and end the run. This worker's interpreter is not used again ('crashed'
      // tells pybook check's host; the page hears reusable: false with the exit).
      const message = (error instanceof Error ? error.message : String(error)).trimEnd().split('\n').slice(-1)[0];
      output.write('stderr', `Python itself failed while running the program: ${message}\n`);
      post({ type: 'crashed', message });
      crashed = true;
      status = 1;
    }
    output.flush();
    // The page runs the next program here too, unless this one reached JavaScript or crashed.
    post({ type: 'exit', status, reusable: !crashed && ready.reusable });
  });
};
