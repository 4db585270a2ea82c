import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BookConfig } from '../../shared/model/config.js';
import { copyOf, sameWhileUnchanged, type CopiedFile, type FileContents } from '../../output/copied-file.js';
import { hashText, type CacheEntry, type DiskCache } from '../../cache/disk-cache.js';
import type { RunnerSiteData } from '../../shared/model/page.js';
import { fixtureFilesOf, pyodideFolder, pyodideVersion } from './browser-check-file.js';
import { bundleWorker, WORKER_ENTRIES, type WorkerName } from '../../bundler/bundle-workers.js';
import { PYODIDE_FILES, precompressedPyodide } from './pyodide-precompressed.js';
import { sandboxDocument, sandboxLauncher } from './sandbox-document.js';


export interface RunnerAssets {
  /** Output files: path relative to the site root -> contents. */
  files: Map<string, FileContents>;
  /** Every one of them is named by its content (or its version), so it may be cached for good. */
  contentNamed: string[];
  /** What the page's runner needs to know (in the site data). */
  data: RunnerSiteData;
}

const workerCode = new Map<WorkerName, Promise<Buffer>>();
/** The build cache's entry of each worker, which every build that uses the bundle keeps (see DiskCache.keep). */
const workerCacheEntries = new Map<WorkerName, CacheEntry[]>();
/** The sandbox document's launcher, made once per sandbox document (the same object while it is the same). */
const launchers = new WeakMap<Promise<Buffer>, Promise<Buffer>>();
function launcherOf(sandbox: Promise<Buffer>): Promise<Buffer> {
  let launcher = launchers.get(sandbox);
  if (!launcher) launchers.set(sandbox, (launcher = sandbox.then((doc) => Buffer.from(sandboxLauncher(doc.toString('utf8'))))));
  return launcher;
}
/** A file's bytes, the same object while the file is unchanged. */
const readOnce = sameWhileUnchanged((file) => readFileSync(file));

/**
 * The files that let a reader run examples in the page: Pyodide, self-hosted from the npm
 * package (never a CDN) in a folder named by its version, with the compressed siblings made at
 * install (pyodide-precompressed.ts); the sandbox document and the two worker
 * scripts; the book's fixtures. None of it is fetched before the reader's first sign of intent.
 */
export async function runnerAssets(config: BookConfig, disk?: DiskCache): Promise<RunnerAssets> {
  const files = new Map<string, FileContents>();
  const base = config.basePath;
  const version = pyodideVersion();
  const pyodideDir = `assets/pyodide-${version}/`;
  const source = pyodideFolder();
  // What `npm run prepare` made of them (a copy here, no CPU): .br/.gz siblings, which `pybook
  // serve` sends to browsers that accept them, and the standard library repacked with bytecode.
  const prepared = precompressedPyodide();
  const pyodide = new Map<string, { file: CopiedFile; url: string; sent: number }>();
  for (const name of PYODIDE_FILES) {
    const { original, replacement, siblings = {} } = prepared.get(name) ?? {};
    // A repacked file is not the package's: named by its content, not only by the version folder.
    const file = replacement ?? original ?? copyOf(path.join(source, name));
    const served = pyodideDir + (replacement?.sha1 ? name.replace(/(\.[^.]+)$/, `.${replacement.sha1.slice(0, 10)}$1`) : name);
    files.set(served, file);
    for (const [encoding, sibling] of Object.entries(siblings)) files.set(`${served}.${encoding}`, sibling);
    // What a browser downloads: the brotli sibling where there is one (pybook serve sends it).
    pyodide.set(name, { file, url: base + served, sent: siblings.br?.size ?? file.size });
  }
  // Only the lock file's header: no package beyond the standard library is loaded, so its 120 KB
  // list of packages (to be fetched from a CDN) is left out.
  const lock = JSON.parse(readFileSync(path.join(source, 'pyodide-lock.json'), 'utf8')) as { info: unknown };
  const workers = {} as Record<WorkerName, string>;
  let launcher = '';
  for (const name of Object.keys(WORKER_ENTRIES) as WorkerName[]) {
    let code = workerCode.get(name);
    if (!code) {
      // Made once per process and then the same object: watch mode tells a changed page by its
      // identity, and a sandbox document made anew on every rebuild reloaded every open tab.
      code = bundleWorker(name, disk).then((b) => {
        workerCacheEntries.set(name, b.cacheEntries);
        const script = Buffer.from(b.code);
        return name === 'sandbox-host' ? Buffer.from(sandboxDocument(script.toString('utf8'))) : script;
      });
      code.catch(() => workerCode.delete(name));
      workerCode.set(name, code);
    }
    const bytes = await code;
    disk?.keep(workerCacheEntries.get(name) ?? []);
    const hash = hashText(bytes).slice(0, 10);
    // The sandbox document is a folder's index.html: static servers give it at its folder's URL (pybook's redirects "x.html").
    const folder = name === 'sandbox-host' ? `assets/runner/sandbox.${hash}/` : '';
    const file = folder ? `${folder}index.html` : `assets/runner/${name}.${hash}.js`;
    files.set(file, bytes);
    workers[name] = base + (folder || file);
    if (folder) {
      // Its launcher, for pages a service worker controls (see sandboxLauncher), named by its own content.
      const launcherBytes = await launcherOf(code);
      const launcherFolder = `assets/runner/launcher.${hashText(launcherBytes).slice(0, 10)}/`;
      files.set(`${launcherFolder}index.html`, launcherBytes);
      launcher = base + launcherFolder;
    }
  }
  const fixtures: RunnerSiteData['fixtures'] = [];
  for (const fixture of fixtureFilesOf(config)) {
    const bytes = readOnce(fixture.file);
    const file = `assets/fixtures/${hashText(bytes).slice(0, 10)}/${fixture.name}`;
    files.set(file, bytes);
    fixtures.push({ name: fixture.name, url: base + file });
  }
  const data: RunnerSiteData = {
    timeLimitMs: Math.round(config.runner.timeLimitSeconds * 1000),
    sandbox: workers['sandbox-host'],
    launcher,
    python: {
      worker: workers['python-worker'],
      files: PYODIDE_FILES.map((name) => {
        const { url, file, sent } = pyodide.get(name)!;
        return { name, url, bytes: file.size, sent };
      }),
      lock: JSON.stringify({ info: lock.info, packages: {} }),
    },
    javascript: { worker: workers['sandbox-worker'] },
    fixtures,
  };
  return { files, contentNamed: [...files.keys()], data };
}
