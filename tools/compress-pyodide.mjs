/**
 * `npm run prepare`, last step: the .br/.gz copies of the Pyodide files pybook ships
 * (src/runner/pyodide-precompressed.ts), made once per Pyodide version, so that every build only
 * copies them. Kept across `prepare` runs (tools/clean-dist.mjs leaves dist/pyodide/): the next
 * run finds them up to date in a few stat calls.
 */
import { writePrecompressedPyodide } from '../dist/runner/build/pyodide-precompressed.js';

const started = performance.now();
const outcome = await writePrecompressedPyodide();
if (outcome === 'written')
  console.log(
    `pybook: compressed Pyodide's files for the site (${((performance.now() - started) / 1000).toFixed(1)} s, once per Pyodide version)`,
  );
