import { fileURLToPath } from 'node:url';
import type { CacheEntry, CacheNamespace, DiskCache } from '../cache/disk-cache.js';
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

interface CachedScript {
  inputs: Record<string, string>;
  code: string;
}

export interface ScriptBundle {
  code: string;
  /** The source files it was bundled from. */
  inputs: string[];
  /** Its entry in the build cache, which a build that reuses the bundle keeps (see DiskCache.keep). */
  cacheEntries: CacheEntry[];
}

/**
 * A browser script bundled by `bundle`, or the last bundle from the cache's entry `namespace/key`
 * while none of the files it was made from changed (esbuild is then not even loaded). A new bundle
 * is written over the stale entry.
 */
export async function cachedScript(
  disk: DiskCache | undefined,
  namespace: CacheNamespace,
  key: string,
  bundle: () => Promise<{ code: string; inputs: string[] }>,
): Promise<ScriptBundle> {
  const entryOf = (cached: CachedScript): CacheEntry[] => [{ namespace, key, contents: JSON.stringify(cached) }];
  const cached = disk?.readJson<CachedScript>(namespace, key);
  if (cached && Object.entries(cached.inputs).every(([input, digest]) => inputHash(input) === digest))
    return { code: cached.code, inputs: Object.keys(cached.inputs), cacheEntries: entryOf(cached) };
  const { code, inputs } = await bundle();
  // --no-cache: nothing is written, so the inputs need no hashing either.
  if (!disk?.enabled) return { code, inputs, cacheEntries: [] };
  const cacheEntries = entryOf({ inputs: Object.fromEntries(inputs.map((input) => [input, inputHash(input)])), code });
  for (const entry of cacheEntries) disk.write(entry.namespace, entry.key, entry.contents);
  return { code, inputs, cacheEntries };
}

/** Bundles one worker (or other browser) script, minified, or reuses the cache's (see cachedScript). */
export function bundleWorker(name: ScriptName, disk?: DiskCache): Promise<ScriptBundle> {
  return cachedScript(disk, 'runner', `${name}-${esbuildVersion}.json`, async () => {
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
    return { code: result.outputFiles[0].text, inputs: Object.keys(result.metafile.inputs) };
  });
}
