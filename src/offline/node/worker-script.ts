import type { CacheEntry, DiskCache } from '../../cache/disk-cache.js';
import { esbuildVersion, inputHash } from '../../bundler/bundle-client.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';

const ENTRY = 'src/offline/worker/service-worker.ts';

interface CachedWorker {
  inputs: Record<string, string>;
  code: string;
}

let bundled: Promise<{ code: string; cacheEntries: CacheEntry[] }> | undefined;

/**
 * The service worker's code (worker/service-worker.ts with workbox-routing and workbox-strategies),
 * bundled by esbuild as one classic script, minified, without Workbox's development logging. Made
 * once per process; with a disk cache, the last bundle is reused while none of its inputs changed.
 * The build puts its list of files before it (offline-build.ts).
 */
export async function workerScript(disk?: DiskCache): Promise<string> {
  bundled ??= bundle(disk);
  bundled.catch(() => (bundled = undefined));
  const { code, cacheEntries } = await bundled;
  // Every build that uses it keeps its entry (see DiskCache.keep).
  disk?.keep(cacheEntries);
  return code;
}

async function bundle(disk?: DiskCache): Promise<{ code: string; cacheEntries: CacheEntry[] }> {
  const key = `service-worker-${esbuildVersion}.json`;
  const entryOf = (cached: CachedWorker): CacheEntry[] => [
    { namespace: 'offline', key, contents: JSON.stringify(cached) },
  ];
  const cached = disk?.readJson<CachedWorker>('offline', key);
  if (cached && Object.entries(cached.inputs).every(([input, digest]) => inputHash(input) === digest))
    return { code: cached.code, cacheEntries: entryOf(cached) };
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: PACKAGE_ROOT,
    entryPoints: [ENTRY],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  if (!disk?.enabled) return { code, cacheEntries: [] };
  const inputs = Object.fromEntries(Object.keys(result.metafile.inputs).map((input) => [input, inputHash(input)]));
  const cacheEntries = entryOf({ inputs, code });
  // Written over the stale entry, if there was one (keep writes only a missing entry).
  for (const { namespace, key, contents } of cacheEntries) disk.write(namespace, key, contents);
  return { code, cacheEntries };
}
