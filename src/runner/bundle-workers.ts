import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The worker scripts of the page's runner; `pybook check` runs the sandbox one under Node too. */
export const WORKER_ENTRIES = {
  /** A classic script: the sandbox iframe starts it from a blob URL. */
  'sandbox-worker': { entry: 'src/client/runner/sandbox-worker.ts', format: 'iife' },
  /** A module worker: it imports Pyodide's own module from the site. */
  'python-worker': { entry: 'src/client/runner/python-worker.ts', format: 'esm' },
} as const;

export type WorkerName = keyof typeof WORKER_ENTRIES;

/** Bundles one worker script (minified, for browsers); returns its code and the source files it read. */
export async function bundleWorker(name: WorkerName): Promise<{ code: string; inputs: string[] }> {
  const { entry, format } = WORKER_ENTRIES[name];
  const result = await esbuild.build({
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
}
