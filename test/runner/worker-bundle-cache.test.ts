/**
 * The runner's worker bundles in the build cache: an entry whose sources changed since is bundled
 * again and written over, so the next build reads the new bundle instead of bundling once more.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiskCache } from '../../src/cache/disk-cache.js';
import { esbuildVersion, inputHash } from '../../src/bundler/bundle-client.js';
import { bundleWorker } from '../../src/bundler/bundle-workers.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'pybook-worker-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a worker bundle in the build cache', () => {
  it('is made again when a source changed, and the stale entry is replaced', async () => {
    const key = `sandbox-worker-${esbuildVersion}.json`;
    const stale = new DiskCache(dir);
    stale.writeJson('runner', key, { inputs: { 'src/runner/client/sandbox-worker.ts': 'changed since' }, code: 'old' });

    const fresh = await bundleWorker('sandbox-worker', new DiskCache(dir));
    expect(fresh.code).not.toBe('old');
    expect(fresh.inputs).toContain('src/runner/client/sandbox-worker.ts');

    const entry = JSON.parse(readFileSync(path.join(dir, 'runner', key), 'utf8')) as {
      inputs: Record<string, string>;
      code: string;
    };
    expect(entry.code).toBe(fresh.code);
    for (const [input, digest] of Object.entries(entry.inputs)) expect(digest, input).toBe(inputHash(input));

    // The next build reads it back.
    const again = await bundleWorker('sandbox-worker', new DiskCache(dir));
    expect(again.code).toBe(fresh.code);
    expect(again.cacheEntries).toEqual(fresh.cacheEntries);
  });
});
