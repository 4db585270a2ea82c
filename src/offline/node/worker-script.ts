import type { DiskCache } from '../../cache/disk-cache.js';
import { esbuildVersion, inputHash } from '../../bundler/bundle-client.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';

const ENTRY = 'src/offline/worker/service-worker.ts';

interface CachedWorker {
  inputs: Record<string, string>;
  code: string;
}

let bundled: Promise<string> | undefined;

/**
 * The service worker's code (worker/service-worker.ts with workbox-routing and workbox-strategies),
 * bundled by esbuild as one classic script, minified, without Workbox's development logging. Made
 * once per process; with a disk cache, the last bundle is reused while none of its inputs changed.
 * The build puts its list of files before it (offline-build.ts).
 */
export function workerScript(disk?: DiskCache): Promise<string> {
  bundled ??= bundle(disk);
  bundled.catch(() => (bundled = undefined));
  return bundled;
}

async function bundle(disk?: DiskCache): Promise<string> {
  const key = `service-worker-${esbuildVersion}.json`;
  const cached = disk?.readJson<CachedWorker>('offline', key);
  if (cached && Object.entries(cached.inputs).every(([input, digest]) => inputHash(input) === digest))
    return cached.code;
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
  if (disk?.enabled)
    disk.writeJson('offline', key, {
      inputs: Object.fromEntries(Object.keys(result.metafile.inputs).map((input) => [input, inputHash(input)])),
      code,
    } satisfies CachedWorker);
  return code;
}
