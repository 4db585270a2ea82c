/**
 * `npm run prepare`, first step: empties dist/ so that no module of an older compile lingers,
 * except dist/pyodide/, the compressed Pyodide files (tools/compress-pyodide.mjs), which take
 * some 25 s of CPU to make and change only with Pyodide's version.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';

const KEEP = new Set(['pyodide']);
if (existsSync('dist')) {
  for (const entry of readdirSync('dist'))
    if (!KEEP.has(entry)) rmSync(`dist/${entry}`, { recursive: true, force: true });
}
