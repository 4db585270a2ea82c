/**
 * The files a sandbox needs, fetched by the page (the sandbox itself may make no request) once per
 * page lifetime and handed to every sandbox, Pyodide's each as soon as it has arrived. Every file is content- or version-named, so
 * the HTTP cache keeps it for the next visit (the server marks such files immutable).
 */
import type { RunnerSiteData } from '../../shared/model/page.js';
import type { FileMessage, FixtureFile, RunnerLanguage, StartMessage } from './protocol.js';
import { mark } from './timeline-marks.js';

export type Progress = (loaded: number, total: number) => void;

async function text(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.text();
}

async function bytes(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/**
 * A file as a Blob, with its download's progress. XMLHttpRequest rather than fetch: with
 * responseType 'blob' the browser writes the body straight to its blob store and still reports
 * progress, so the page's main thread never holds the ~25 MB of Pyodide's files, and handing them
 * to a sandbox posts a reference, not a copy (fetch with a reader loop and a copied postMessage:
 * some 1.5 s of the page's and the sandbox's main threads on this machine; see runner-trace.ts).
 */
function blob(url: string, onProgress: (loaded: number) => void): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('GET', url);
    request.responseType = 'blob';
    request.onprogress = (event) => onProgress(event.loaded);
    request.onload = () =>
      request.status === 200 ? resolve(request.response as Blob) : reject(new Error(`${url}: HTTP ${request.status}`));
    request.onerror = () => reject(new Error(`${url}: the download failed`));
    request.send();
  });
}

/** Listeners of the Python download in progress (any number of runs may wait for it). */
const progressListeners = new Set<Progress>();

/**
 * Pyodide's files, each a message of its own as soon as it is downloaded (all four download at
 * once). Progress is told in bytes transferred: a compressed download reports the bytes it has
 * unpacked, so each file's share of its own size is counted against what it transfers.
 */
function pythonFiles(setup: RunnerSiteData): Array<Promise<FileMessage>> {
  const total = setup.python.files.reduce((sum, f) => sum + f.sent, 0);
  const sent = new Map<string, number>();
  const count = ({ name, bytes, sent: size }: RunnerSiteData['python']['files'][number], unpacked: number) => {
    sent.set(name, Math.min(1, unpacked / bytes) * size);
    const sum = [...sent.values()].reduce((a, b) => a + b, 0);
    for (const listen of progressListeners) listen(Math.min(sum, total), total);
  };
  return setup.python.files.map(async (file) => ({
    type: 'file' as const,
    name: file.name,
    file: await blob(file.url, (unpacked) => count(file, unpacked)),
  }));
}

const fixtures = (setup: RunnerSiteData): Promise<FixtureFile[]> =>
  Promise.all(setup.fixtures.map(async ({ name, url }) => ({ name, bytes: await bytes(url) })));

/** What a sandbox of one language is started with, as it arrives. */
export interface RuntimeLoad {
  /** The start message: the worker's code and, for Python, the lock, the fixtures and the names of the files to follow. */
  start: Promise<StartMessage>;
  /** Pyodide's files, each as soon as it is downloaded: a sandbox starts on the first while the others arrive. */
  files: Array<Promise<FileMessage>>;
  /** Resolves once everything has arrived; rejects with the first failure. */
  complete: Promise<unknown>;
}

const loads = new Map<RunnerLanguage, RuntimeLoad>();

function load(lang: RunnerLanguage, setup: RunnerSiteData): RuntimeLoad {
  if (lang === 'javascript') {
    const start = text(setup.javascript.worker).then((script): StartMessage => ({ type: 'start', lang, script }));
    return { start, files: [], complete: start };
  }
  // The small files are asked for first: a browser opens six connections to a server, and the
  // start message must not wait behind Pyodide's big files for a free one.
  const start = Promise.all([text(setup.python.worker), fixtures(setup)]).then(
    ([script, fixtureFiles]): StartMessage => ({
      type: 'start',
      lang,
      script,
      lock: setup.python.lock,
      fixtures: fixtureFiles,
      fileNames: setup.python.files.map((file) => file.name),
    }),
  );
  const files = pythonFiles(setup);
  return { start, files, complete: Promise.all([start, ...files]) };
}

/**
 * What a sandbox of `lang` is started with; fetched on the first call (a reader's first sign of
 * intent), shared by every later one. `progress` hears the Python download while it lasts.
 */
export function runtimeLoad(lang: RunnerLanguage, setup: RunnerSiteData, progress?: Progress): RuntimeLoad {
  if (progress) progressListeners.add(progress);
  let runtime = loads.get(lang);
  if (!runtime) {
    mark(`${lang} runtime download`);
    const started = (runtime = load(lang, setup));
    loads.set(lang, started);
    started.complete.then(
      () => mark(`${lang} runtime downloaded`),
      () => {
        if (loads.get(lang) === started) loads.delete(lang); // the next run tries again
      },
    );
  }
  const done = () => {
    if (progress) progressListeners.delete(progress);
  };
  runtime.complete.then(done, done);
  return runtime;
}
