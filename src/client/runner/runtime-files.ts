/**
 * The files a sandbox needs, fetched by the page (the sandbox itself may make no request) once per
 * page lifetime and handed to every sandbox as bytes. Every file is content- or version-named, so
 * the HTTP cache keeps it for the next visit (the server marks such files immutable).
 */
import type { RunnerSiteData } from '../../pages/types.js';
import type { FixtureFile, RunnerLanguage, StartMessage } from './protocol.js';
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
    request.onload = () => (request.status === 200 ? resolve(request.response as Blob) : reject(new Error(`${url}: HTTP ${request.status}`)));
    request.onerror = () => reject(new Error(`${url}: the download failed`));
    request.send();
  });
}

/** Listeners of the Python download in progress (any number of runs may wait for it). */
const progressListeners = new Set<Progress>();

async function pythonFiles(setup: RunnerSiteData): Promise<Pick<StartMessage, 'files' | 'lock'>> {
  const total = setup.python.files.reduce((sum, f) => sum + f.bytes, 0);
  const loaded = new Map<string, number>();
  const count = (name: string, bytes: number) => {
    loaded.set(name, bytes);
    const sum = [...loaded.values()].reduce((a, b) => a + b, 0);
    for (const listen of progressListeners) listen(Math.min(sum, total), total);
  };
  const entries = await Promise.all(setup.python.files.map(async (file) => [file.name, await blob(file.url, (bytes) => count(file.name, bytes))] as const));
  return { files: Object.fromEntries(entries), lock: setup.python.lock };
}

const fixtures = (setup: RunnerSiteData): Promise<FixtureFile[]> =>
  Promise.all(setup.fixtures.map(async ({ name, url }) => ({ name, bytes: await bytes(url) })));

const loads = new Map<RunnerLanguage, Promise<StartMessage>>();

/**
 * What a sandbox of `lang` is started with; fetched on the first call (a reader's first sign of
 * intent), shared by every later one. `progress` hears the Python download while it lasts.
 */
export function startMessage(lang: RunnerLanguage, setup: RunnerSiteData, progress?: Progress): Promise<StartMessage> {
  if (progress) progressListeners.add(progress);
  let load = loads.get(lang);
  if (!load) {
    load = lang === 'python'
      ? Promise.all([text(setup.python.worker), pythonFiles(setup), fixtures(setup)]).then(([script, files, fixtureFiles]) => ({ type: 'start' as const, lang, script, ...files, fixtures: fixtureFiles }))
      : text(setup.javascript.worker).then((script) => ({ type: 'start' as const, lang, script }));
    mark(`${lang} runtime download`);
    void load.then(() => mark(`${lang} runtime downloaded`), () => {});
    loads.set(lang, load);
    load.catch(() => loads.delete(lang)); // the next run tries again
  }
  const done = () => { if (progress) progressListeners.delete(progress); };
  load.then(done, done);
  return load;
}
