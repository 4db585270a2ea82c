import type { DiskCache } from '../../cache/disk-cache.js';
import { esbuildVersion } from '../../bundler/bundle-client.js';
import { cachedScript, type ScriptBundle } from '../../bundler/bundle-workers.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';

const ENTRY = 'src/offline/worker/service-worker.ts';

let bundled: Promise<ScriptBundle> | undefined;

/**
 * The service worker's code (worker/service-worker.ts with workbox-routing and workbox-strategies),
 * bundled by esbuild as one classic script, minified, without Workbox's development logging. Made
 * once per process; with a disk cache, the last bundle is reused while none of its inputs changed.
 * The build puts its list of files before it (offline-build.ts).
 */
export async function workerScript(disk?: DiskCache): Promise<string> {
  bundled ??= cachedScript(disk, 'offline', `service-worker-${esbuildVersion}.json`, bundle);
  bundled.catch(() => (bundled = undefined));
  const { code, cacheEntries } = await bundled;
  // Every build that uses it keeps its entry (see DiskCache.keep).
  disk?.keep(cacheEntries);
  return code;
}

async function bundle(): Promise<{ code: string; inputs: string[] }> {
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
  return { code: result.outputFiles[0].text, inputs: Object.keys(result.metafile.inputs) };
}
