import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type * as esbuild from 'esbuild';
import { hashText, type DiskCache } from '../cache/disk-cache.js';
import type { LazyModuleAsset } from '../shared/model/page.js';

/** The client bundle's files a page names: its entry, the modules to preload, the stylesheet, the lazy entries. */
export interface PageAssets {
  /** URL of the client entry module. */
  entry: string;
  /** Module URLs the entry imports at once (modulepreload). */
  preload: string[];
  stylesheet: string;
  /** The print stylesheet (src/theme/print.css), linked with media="print": no cost to the first paint. */
  printStylesheet?: string;
  /** The client's lazily loaded entry modules by name, with the chunks each imports. */
  lazy: Record<string, LazyModuleAsset>;
}

const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

/** esbuild's version, read without loading esbuild: a bundle from the cache needs no bundler. */
export const esbuildVersion = (
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve('esbuild/package.json'), 'utf8')) as {
    version: string;
  }
).version;

/**
 * Entry modules the client loads only when needed, by name (client/lazy-modules.ts); the site
 * data tells the browser their URLs and the chunks they import.
 */
const LAZY_ENTRIES: Record<string, string> = {
  'search-ui': 'src/search/client/ui.ts',
  runner: 'src/runner/client/ui.ts',
  progress: 'src/progress/client/ui.ts',
  offline: 'src/offline/client/offline-ui.ts',
};

/** Every chunk an output imports statically, directly or through other chunks. */
function staticImportsOf(out: string, outputs: esbuild.Metafile['outputs'], seen = new Set<string>()): string[] {
  for (const imported of outputs[out]?.imports ?? []) {
    if (imported.kind !== 'import-statement' || seen.has(imported.path)) continue;
    seen.add(imported.path);
    staticImportsOf(imported.path, outputs, seen);
  }
  return [...seen].sort();
}

/**
 * elasticlunr assigns an undeclared `lunr` (a sloppy-mode global), which fails in an ES module's
 * strict code: the variable is declared in elasticlunr's own module, not in every file of the bundle.
 */
const declareLunr: esbuild.Plugin = {
  name: 'declare-lunr-in-elasticlunr',
  setup(build) {
    build.onLoad({ filter: /[\\/]elasticlunr[\\/]elasticlunr\.js$/ }, (args) => ({
      contents: `var lunr;\n${readFileSync(args.path, 'utf8')}`,
      loader: 'js',
    }));
  },
};

function bundleOptions(basePath: string) {
  return {
    absWorkingDir: packageRoot,
    entryPoints: {
      app: 'src/client/boot.ts',
      style: 'src/theme/styles.css',
      print: 'src/theme/print.css',
      ...LAZY_ENTRIES,
    },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    // Class fields and the like as written: no helpers of esbuild's in the first load's chunks.
    target: ['es2022'],
    minify: true,
    legalComments: 'none',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [declareLunr],
    outdir: 'assets',
    entryNames: '[name].[hash]',
    chunkNames: 'chunk.[hash]',
    assetNames: '[name].[hash]',
    publicPath: `${basePath}assets/`,
    metafile: true,
    write: false,
    logLevel: 'silent',
  } satisfies esbuild.BuildOptions;
}

/**
 * V8 compiles a function when it is first called, on the main thread. A first load's modules call
 * nearly all of theirs at once (React's hydration, and react-dom's CommonJS factory, one function
 * of 130 KB), so they ask V8 to compile everything while the file streams in, off the main thread
 * (V8's explicit compile hints, Chromium 136+; to other engines it is a comment). It halves the
 * app module's evaluation on the main thread (bench/first-layout.ts). Modules loaded later (search,
 * the runner's editor) compile only what they call. The hint is added after esbuild names the
 * files: a name still stands for one content, the hint being the same line in every build.
 */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

function hintEagerCompile(files: Map<string, Uint8Array>, name: string): void {
  const contents = files.get(name);
  if (!contents) throw new Error(`the bundle has no ${name}`);
  files.set(name, Buffer.concat([Buffer.from(COMPILE_HINT), contents]));
}

export interface ClientBundle {
  assets: PageAssets;
  /** Output files: path relative to the site root -> contents. */
  files: Map<string, Uint8Array>;
}

/**
 * Bundles the browser client (React, the theme, the router) as minified ESM with code
 * splitting and content-hashed names, plus the stylesheet. Sources are read from src/ so the
 * same components render on the server (compiled) and in the browser (bundled).
 */
export async function bundleClient(basePath: string, disk?: DiskCache): Promise<ClientBundle> {
  const options = bundleOptions(basePath);
  // The options and the compile hint are part of the key: a bundle made otherwise (a new target, say) is another bundle.
  const manifestKey = `manifest-${hashText(basePath, esbuildVersion, JSON.stringify(options), COMPILE_HINT).slice(0, 16)}.json`;
  const cached = disk && fromCache(disk, manifestKey);
  if (cached) return cached;
  const { build } = await import('esbuild');
  const result = await build(options);
  const files = new Map<string, Uint8Array>();
  const outputs = result.metafile.outputs;
  let entry = '';
  let stylesheet = '';
  let printStylesheet = '';
  const preload: string[] = [];
  for (const file of result.outputFiles) {
    const relative = path.relative(packageRoot, file.path).split(path.sep).join('/');
    files.set(relative, file.contents);
  }
  const lazy: Record<string, LazyModuleAsset> = {};
  for (const [out, meta] of Object.entries(outputs)) {
    const lazyName = Object.keys(LAZY_ENTRIES).find((name) => LAZY_ENTRIES[name] === meta.entryPoint);
    if (lazyName)
      lazy[lazyName] = { url: basePath + out, deps: staticImportsOf(out, outputs).map((dep) => basePath + dep) };
    if (meta.entryPoint === 'src/client/boot.ts') {
      entry = basePath + out;
      for (const imported of meta.imports)
        if (imported.kind === 'import-statement') preload.push(basePath + imported.path);
    }
    if (meta.entryPoint === 'src/theme/styles.css' && out.endsWith('.css')) stylesheet = basePath + out;
    if (meta.entryPoint === 'src/theme/print.css' && out.endsWith('.css')) printStylesheet = basePath + out;
  }
  // The CSS entries also yield empty JS stubs; they are never requested.
  for (const name of [...files.keys()]) if (/^assets\/(style|print)\.[^.]+\.js$/.test(name)) files.delete(name);
  // The app that hydrates after the page is shown (src/client/hydrate.tsx, boot.ts's dynamic import)
  // calls nearly all of its code at once too: React's hydration.
  const app = Object.entries(outputs).find(([, meta]) => meta.entryPoint === 'src/client/hydrate.tsx')?.[0];
  const appFiles = app ? [app, ...staticImportsOf(app, outputs)] : [];
  for (const name of new Set([...[entry, ...preload].map((url) => url.slice(basePath.length)), ...appFiles]))
    hintEagerCompile(files, name);
  const bundle = { assets: { entry, preload, stylesheet, printStylesheet, lazy }, files };
  // --no-cache: nothing is written, so the inputs need no hashing either.
  if (disk?.enabled) toCache(disk, manifestKey, bundle, Object.keys(result.metafile.inputs));
  return bundle;
}

interface BundleManifest {
  inputs: Record<string, string>;
  assets: PageAssets;
  files: string[];
}

const fileKey = (name: string) => `${hashText(name).slice(0, 16)}.out`;
/** A short hash of a source file the bundler read (relative to pybook's folder); 'missing' if it is gone. */
export const inputHash = (input: string) => {
  try {
    return hashText(readFileSync(path.join(packageRoot, input))).slice(0, 16);
  } catch {
    return 'missing';
  }
};

/** The last bundle, if none of the files esbuild read for it (sources and packages) changed. */
function fromCache(disk: DiskCache, manifestKey: string): ClientBundle | undefined {
  const manifest = disk.readJson<BundleManifest>('client', manifestKey);
  if (!manifest) return undefined;
  for (const [input, digest] of Object.entries(manifest.inputs)) if (inputHash(input) !== digest) return undefined;
  const files = new Map<string, Uint8Array>();
  for (const name of manifest.files) {
    const contents = disk.read('client', fileKey(name));
    if (!contents) return undefined;
    files.set(name, contents);
  }
  return { assets: manifest.assets, files };
}

function toCache(disk: DiskCache, manifestKey: string, bundle: ClientBundle, inputs: string[]): void {
  for (const [name, contents] of bundle.files) disk.write('client', fileKey(name), contents);
  const manifest: BundleManifest = {
    inputs: Object.fromEntries(inputs.map((i) => [i, inputHash(i)])),
    assets: bundle.assets,
    files: [...bundle.files.keys()],
  };
  disk.writeJson('client', manifestKey, manifest);
}
