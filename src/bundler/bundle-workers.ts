import { fileURLToPath } from 'node:url';
import type { CacheEntry, DiskCache } from '../cache/disk-cache.js';
import { esbuildVersion, inputHash } from './bundle-client.js';

const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The worker scripts of the page's runner; `pybook check` runs the sandbox one under Node too. */
export const WORKER_ENTRIES = {
  /** The sandbox document's own script (inlined into it, see sandbox-document.ts). */
  'sandbox-host': { entry: 'src/runner/client/sandbox-host.ts', format: 'iife' },
  /** A classic script: the sandbox iframe starts it from a blob URL. */
  'sandbox-worker': { entry: 'src/runner/client/sandbox-worker.ts', format: 'iife' },
  /**
   * A classic script too (Chromium starts no module worker from a blob URL in an opaque origin);
   * it imports Pyodide's modules from blob URLs with import().
   */
  'python-worker': { entry: 'src/runner/client/python-worker.ts', format: 'iife' },
} as const;

export type WorkerName = keyof typeof WORKER_ENTRIES;

/** Browser scripts bundled like the workers, which the site's assets do not list. */
const OTHER_SCRIPTS = {
  /** Watch mode's live-reload client, inlined at the end of every page (see src/watch/live-reload.ts). */
  'live-reload': { entry: 'src/watch/client/live-reload.ts', format: 'iife' },
} as const;

type ScriptName = WorkerName | keyof typeof OTHER_SCRIPTS;

interface CachedWorker {
  inputs: Record<string, string>;
  code: string;
}

export interface WorkerBundle {
  code: string;
  /** The source files it was bundled from. */
  inputs: string[];
  /** Its entry in the build cache, which a build that reuses the bundle keeps (see DiskCache.keep). */
  cacheEntries: CacheEntry[];
}

/**
 * Bundles one worker (or other browser) script, minified; returns its code and the source files it
 * read. With a disk cache, the last bundle is reused while none of those files changed, and
 * esbuild is not even loaded.
 */
export async function bundleWorker(name: ScriptName, disk?: DiskCache): Promise<WorkerBundle> {
  const key = `${name}-${esbuildVersion}.json`;
  const entryOf = (cached: CachedWorker): CacheEntry[] => [
    { namespace: 'runner', key, contents: JSON.stringify(cached) },
  ];
  const cached = disk?.readJson<CachedWorker>('runner', key);
  if (cached && Object.entries(cached.inputs).every(([input, digest]) => inputHash(input) === digest)) {
    return { code: cached.code, inputs: Object.keys(cached.inputs), cacheEntries: entryOf(cached) };
  }
  const { entry, format } = { ...WORKER_ENTRIES, ...OTHER_SCRIPTS }[name];
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: packageRoot,
    entryPoints: [entry],
    bundle: true,
    format,
    platform: 'browser',
    target: ['es2020'],
    minify: true,
    legalComments: 'none',
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  const inputs = Object.keys(result.metafile.inputs);
  // --no-cache: nothing is written, so the inputs need no hashing either.
  if (!disk?.enabled) return { code, inputs, cacheEntries: [] };
  const cacheEntries = entryOf({ inputs: Object.fromEntries(inputs.map((input) => [input, inputHash(input)])), code });
  // Written over the stale entry, if there was one (keep writes only a missing entry).
  for (const { namespace, key, contents } of cacheEntries) disk.write(namespace, key, contents);
  return { code, inputs, cacheEntries };
}
