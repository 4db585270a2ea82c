/**
 * `npm run prepare`, after tsc: bundles the compiled CLI (dist/) and the packages it uses into
 * dist/bundle/, which bin/pybook.js loads. Node otherwise resolves and reads some 600 small
 * modules (480 of them from packages) as a build starts: the bundle takes about 11%
 * off a cold build and some 250 ms off every command's start.
 *
 * Lazy imports stay lazy (code splitting: a cached build still never loads the parser). Every
 * chunk sits two folders below the project, like dist/cli/index.js, so that the paths that
 * modules make from import.meta.url (../../package.json, ../../templates/page.html) still
 * resolve; the script that runs in a thread of its own (compile-worker) is an entry, found next to the
 * chunks as it is next to its caller in dist/. (The check's runtime host is bundled from src/ when a
 * check starts, into one file it runs confined: see src/runner/node/runtimes.ts.)
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const dist = path.join(root, 'dist');
const out = path.join(dist, 'bundle');

rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: {
    cli: path.join(dist, 'cli', 'index.js'),
    'compile-worker': path.join(dist, 'generator', 'compile-worker.js'),
  },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: '[name]-[hash]',
  // Native code, binaries, packages that find their own files next to themselves (pyodide), and
  // elasticlunr, which assigns an undeclared global `lunr` ("lunr is not defined" inside a
  // strict-mode ES module bundle).
  external: ['nodejieba', 'elasticlunr', 'esbuild', 'pyodide', 'playwright-core', 'fsevents'],
  // CommonJS packages inside an ES module bundle call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __pybookCreateRequire } from 'node:module'; const require = __pybookCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
  legalComments: 'none',
  // 2 MB of JavaScript is parsed at every start: without whitespace and with shorter syntax it
  // is 1.6 MB, and a cold build 0.94-0.96 of the time (paired runs). Names stay as written, so
  // stack traces still name the functions.
  minifyWhitespace: true,
  minifySyntax: true,
});

// The page shell's server renderer: browser components (typed with the DOM, never imported by Node
// code), bundled for Node from their sources; src/generator/shell-renderer.ts loads it by path.
await build({
  entryPoints: { 'server-render': path.join(root, 'src', 'theme', 'client', 'server-render.tsx') },
  outdir: out,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  jsx: 'automatic',
  packages: 'external',
  logLevel: 'warning',
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
});
