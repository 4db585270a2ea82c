/**
 * `.br` and `.gz` copies of the Pyodide files the page fetches, made once when pybook is installed
 * (`npm run prepare` runs tools/compress-pyodide.mjs), not by each build. They are fixed files of
 * an npm package, the same for every book: compressing them well costs some 25 s of CPU (brotli
 * quality 10 on a 9.6 MB wasm), which no build, cold or `--no-cache`, should pay. A build only
 * copies them next to the originals (see site-assets.ts), so `pybook serve` sends them by default.
 *
 * dist/pyodide/<version>/ holds the copies and manifest.json, which records what they were made
 * from (each source's size and modification time) and each copy's size and SHA-1 (the build's
 * output manifest takes it from there instead of reading the copies again). A copy whose source
 * has changed since is not used: the build then simply writes no sibling for that file.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { CopiedFile } from '../output/copied-file.js';
import { pyodideFolder, pyodideVersion } from './browser-check-file.js';

/** The files of the npm `pyodide` package that loading Python in a browser fetches. */
export const PYODIDE_FILES = ['pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip'];

/**
 * Brotli quality 10 with a 16 MB window: the wasm is 2.86 MB (quality 9: 3.13 MB, 5 s; 10: 21 s
 * here; 11: 2.74 MB in 147 s, too long for an install). gzip -9 for clients without brotli.
 */
const BROTLI = { [zlib.constants.BROTLI_PARAM_QUALITY]: 10, [zlib.constants.BROTLI_PARAM_LGWIN]: 24 };
const GZIP_LEVEL = 9;
/** A copy that saves less than this is not kept (the standard library zip is deflated already). */
const MIN_SAVING = 0.05;
const SETTINGS = `br10-w24-gz9-${MIN_SAVING}`;

export type Encoding = 'br' | 'gz';

interface Manifest {
  version: string;
  settings: string;
  files: Record<string, { size: number; mtimeMs: number; copies: Partial<Record<Encoding, { size: number; sha1: string }>> }>;
}

/** Two folders below the package root, from src/runner/, dist/runner/ and dist/bundle/ alike. */
const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Where the copies are and what they are copies of (tests give their own). */
export interface PyodidePlaces { source: string; version: string; copies: string }

export function installedPyodide(): PyodidePlaces {
  const version = pyodideVersion();
  return { source: pyodideFolder(), version, copies: path.join(packageRoot, 'dist', 'pyodide', version) };
}

function readManifest(folder: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

const stamp = (file: string) => {
  const stats = statSync(file);
  return { size: stats.size, mtimeMs: stats.mtimeMs };
};

/** Whether the copy of `name` was made from the source as it is now. */
function madeFromCurrent(manifest: Manifest, name: string, places: PyodidePlaces): boolean {
  const entry = manifest.files[name];
  if (!entry) return false;
  const now = stamp(path.join(places.source, name));
  return entry.size === now.size && entry.mtimeMs === now.mtimeMs;
}

/**
 * The copies that match the installed Pyodide, by sibling name (`pyodide.asm.wasm.br`), each a
 * file to copy with its SHA-1 known. Empty when `npm run prepare` has not made them (pybook run
 * from its sources) or Pyodide was installed again since.
 */
export function precompressedPyodide(places = installedPyodide()): Map<string, CopiedFile> {
  const copies = new Map<string, CopiedFile>();
  const folder = places.copies;
  const manifest = readManifest(folder);
  if (!manifest || manifest.version !== places.version || manifest.settings !== SETTINGS) return copies;
  for (const name of PYODIDE_FILES) {
    if (!madeFromCurrent(manifest, name, places)) continue;
    for (const [encoding, copy] of Object.entries(manifest.files[name]!.copies)) {
      const file = path.join(folder, `${name}.${encoding}`);
      try {
        if (statSync(file).size !== copy.size) continue;
      } catch {
        continue;
      }
      copies.set(`${name}.${encoding}`, new CopiedFile(file, copy.size, copy.sha1));
    }
  }
  return copies;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes the copies for the installed Pyodide unless they are there already (the same version,
 * settings and sources). All files are compressed at once, on libuv's threads; the folder is
 * written aside and renamed into place, so a killed install leaves no half-written copies.
 */
export async function writePrecompressedPyodide(places = installedPyodide()): Promise<'up to date' | 'written'> {
  const { version, copies: folder } = places;
  const old = readManifest(folder);
  if (old && old.version === version && old.settings === SETTINGS && PYODIDE_FILES.every((name) => madeFromCurrent(old, name, places))) return 'up to date';
  const staging = `${folder}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const manifest: Manifest = { version, settings: SETTINGS, files: {} };
  await Promise.all(PYODIDE_FILES.map(async (name) => {
    const source = path.join(places.source, name);
    const before = stamp(source);
    const bytes = readFileSync(source);
    const made = await Promise.all([
      brotli(bytes, { params: { ...BROTLI, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).then((b) => ['br', b] as const),
      gzip(bytes, { level: GZIP_LEVEL }).then((b) => ['gz', b] as const),
    ]);
    const copies: Manifest['files'][string]['copies'] = {};
    for (const [encoding, compressed] of made) {
      if (compressed.length > bytes.length * (1 - MIN_SAVING)) continue;
      writeFileSync(path.join(staging, `${name}.${encoding}`), compressed);
      copies[encoding] = { size: compressed.length, sha1: createHash('sha1').update(compressed).digest('hex') };
    }
    manifest.files[name] = { ...before, copies };
  }));
  writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  rmSync(folder, { recursive: true, force: true });
  renameSync(staging, folder);
  return 'written';
}
