/**
 * `.br` and `.gz` copies of the Pyodide files the page fetches, made once when pybook is installed
 * (`npm run prepare` runs tools/compress-pyodide.mjs), not by each build. They are fixed files of
 * an npm package, the same for every book: compressing them well costs some 25 s of CPU (brotli
 * quality 10 on a 9.6 MB wasm), which no build, cold or `--no-cache`, should pay. A build only
 * copies them next to the originals (see site-assets.ts), so `pybook serve` sends them by default.
 *
 * dist/pyodide/<version>/ holds the copies and manifest.json, which records what they were made
 * from (each source's size, modification time and SHA-1) and each copy's size and SHA-1 (the
 * build's output manifest takes them from there instead of reading 30 MB again, 80 ms of a cold
 * build). A copy whose source
 * has changed since is not used: the build then simply writes no sibling for that file.
 *
 * The standard library zip is also repacked there, stored and with bytecode for the modules a run
 * starts with (stdlib-bytecode.ts): the site serves that one, named by its content.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { CopiedFile } from '../../output/copied-file.js';
import { pyodideFolder, pyodideVersion } from './browser-check-file.js';
import { stdlibWithBytecode } from './stdlib-bytecode.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';

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
const SETTINGS = `br10-w24-gz9-${MIN_SAVING}-stdlib-pyc1-sha1`;

export type Encoding = 'br' | 'gz';

interface Written { size: number; sha1: string }

interface Manifest {
  version: string;
  settings: string;
  files: Record<string, {
    size: number; mtimeMs: number;
    /** The package's file's own SHA-1: a build copies it too, and its output manifest need not read it again. */
    sha1: string;
    /** The file the site serves instead of the package's (the repacked standard library). */
    replacement?: Written;
    copies: Partial<Record<Encoding, Written>>;
  }>;
}

/** What a build takes for one of PYODIDE_FILES: the file to serve instead of the package's, if any, and its compressed siblings. */
export interface PreparedFile {
  /** The package's file, with its SHA-1 known. */
  original: CopiedFile;
  replacement?: CopiedFile;
  siblings: Partial<Record<Encoding, CopiedFile>>;
}

/** The file that is served repacked (see stdlib-bytecode.ts). */
const REPACKED = 'python_stdlib.zip';


/** Two folders below the package root, from src/runner/, dist/runner/ and dist/bundle/ alike. */
const packageRoot = PACKAGE_ROOT;

/** Where the copies are and what they are copies of (tests give their own). */
export interface PyodidePlaces {
  source: string; version: string; copies: string;
  /** Makes the repacked standard library from the package's folder. */
  repack(source: string): Promise<Uint8Array>;
}

export function installedPyodide(): PyodidePlaces {
  const version = pyodideVersion();
  return { source: pyodideFolder(), version, copies: path.join(packageRoot, 'dist', 'pyodide', version), repack: stdlibWithBytecode };
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
 * Each file as one object while the manifest says the same of it: watch mode tells an unchanged
 * output file by its identity (a new object every build was a changed file every rebuild).
 */
const known = new Map<string, CopiedFile>();

/** The one object for a file the manifest lists, once its size is known to match. */
function remembered(file: string, entry: Written): CopiedFile {
  const key = `${file}\0${entry.size}\0${entry.sha1}`;
  let copy = known.get(key);
  if (!copy) known.set(key, (copy = new CopiedFile(file, entry.size, entry.sha1)));
  return copy;
}

/** A file the manifest lists, if it is there with the listed size. */
function listed(file: string, entry: Written): CopiedFile | undefined {
  try {
    if (statSync(file).size !== entry.size) return undefined;
  } catch {
    return undefined;
  }
  return remembered(file, entry);
}

/**
 * What was made at install for each of PYODIDE_FILES that matches the installed Pyodide: files
 * to copy, with their SHA-1 known. Empty when `npm run prepare` has not made them (pybook run from
 * its sources) or Pyodide was installed again since: the build then serves the package's files
 * without siblings.
 */
export function precompressedPyodide(places = installedPyodide()): Map<string, PreparedFile> {
  const prepared = new Map<string, PreparedFile>();
  const folder = places.copies;
  const manifest = readManifest(folder);
  if (!manifest || manifest.version !== places.version || manifest.settings !== SETTINGS) return prepared;
  for (const name of PYODIDE_FILES) {
    // madeFromCurrent has just read the package file's size and mtime: no second stat for it.
    if (!madeFromCurrent(manifest, name, places)) continue;
    const entry = manifest.files[name];
    const original = remembered(path.join(places.source, name), { size: entry.size, sha1: entry.sha1 });
    const replacement = entry.replacement && listed(path.join(folder, name), entry.replacement);
    if (entry.replacement && !replacement) continue; // the siblings are of the replacement
    const siblings: PreparedFile['siblings'] = {};
    for (const [encoding, copy] of Object.entries(entry.copies) as Array<[Encoding, Written]>) {
      const file = listed(path.join(folder, `${name}.${encoding}`), copy);
      if (file) siblings[encoding] = file;
    }
    prepared.set(name, { original, replacement, siblings });
  }
  return prepared;
}

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

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
    let bytes: Uint8Array = readFileSync(source);
    const originalSha1 = sha1(bytes);
    let replacement: Written | undefined;
    if (name === REPACKED) {
      bytes = await places.repack(places.source);
      writeFileSync(path.join(staging, name), bytes);
      replacement = { size: bytes.length, sha1: sha1(bytes) };
    }
    const made = await Promise.all([
      brotli(bytes, { params: { ...BROTLI, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).then((b) => ['br', b] as const),
      gzip(bytes, { level: GZIP_LEVEL }).then((b) => ['gz', b] as const),
    ]);
    const copies: Manifest['files'][string]['copies'] = {};
    for (const [encoding, compressed] of made) {
      if (compressed.length > bytes.length * (1 - MIN_SAVING)) continue;
      writeFileSync(path.join(staging, `${name}.${encoding}`), compressed);
      copies[encoding] = { size: compressed.length, sha1: sha1(compressed) };
    }
    manifest.files[name] = { ...before, sha1: originalSha1, replacement, copies };
  }));
  writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  rmSync(folder, { recursive: true, force: true });
  renameSync(staging, folder);
  return 'written';
}
