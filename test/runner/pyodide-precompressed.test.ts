import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { bytesOf } from '../../src/output/copied-file.js';
import { entryOf } from '../../src/output/manifest.js';
import {
  PYODIDE_FILES,
  precompressedPyodide,
  writePrecompressedPyodide,
  type PyodidePlaces,
} from '../../src/runner/build/pyodide-precompressed.js';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A stand-in for the pyodide package: text that shrinks, and a "zip" of random bytes that does not. */
function fakePyodide(): PyodidePlaces {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pybook-pyodide-'));
  folders.push(root);
  const source = path.join(root, 'package');
  mkdirSync(source);
  for (const name of PYODIDE_FILES) {
    const bytes = name.endsWith('.zip')
      ? Buffer.from(Array.from({ length: 20_000 }, () => Math.floor(Math.random() * 256)))
      : Buffer.from(`/* ${name} */ export const x = 1;\n`.repeat(500));
    writeFileSync(path.join(source, name), bytes);
  }
  // The repacked standard library stands in as the zip's bytes stored, i.e. bigger than the original.
  const repack = (folder: string) =>
    Promise.resolve(Buffer.concat([Buffer.from('repacked:'), readFileSync(path.join(folder, 'python_stdlib.zip'))]));
  return { source, version: '1.2.3', copies: path.join(root, 'dist', 'pyodide', '1.2.3'), repack };
}

describe('Pyodide compressed at install', () => {
  it('writes .br and .gz copies that decompress to the files, serves the repacked zip, skips what does not shrink, and gives them to the build with their SHA-1', async () => {
    const places = fakePyodide();
    expect(await writePrecompressedPyodide(places)).toBe('written');
    const prepared = precompressedPyodide(places);
    expect([...prepared.keys()].sort()).toEqual([...PYODIDE_FILES].sort());
    const zip = prepared.get('python_stdlib.zip')!;
    expect(String(bytesOf(zip.replacement!)).startsWith('repacked:')).toBe(true);
    expect(zip.siblings).toEqual({}); // random bytes do not shrink
    for (const name of PYODIDE_FILES.filter((n) => !n.endsWith('.zip'))) {
      const { original: packaged, replacement, siblings } = prepared.get(name)!;
      expect(replacement).toBeUndefined();
      const original = readFileSync(path.join(places.source, name));
      // The package's own file too: a build copies it, and its manifest entry needs no reading.
      expect(packaged.source).toBe(path.join(places.source, name));
      expect(packaged.sha1).toBeDefined();
      expect(entryOf(packaged)).toEqual(entryOf(original));
      expect(zlib.brotliDecompressSync(bytesOf(siblings.br!)).equals(original)).toBe(true);
      expect(zlib.gunzipSync(bytesOf(siblings.gz!)).equals(original)).toBe(true);
      for (const copy of [siblings.br!, siblings.gz!]) {
        // The output manifest's entry without reading the copy again, and the same as reading it.
        expect(copy.sha1).toBeDefined();
        expect(entryOf(copy)).toEqual(entryOf(Buffer.from(bytesOf(copy))));
      }
    }
  });

  it('is not made again while up to date, and a copy of a changed source is not used', async () => {
    const places = fakePyodide();
    await writePrecompressedPyodide(places);
    expect(await writePrecompressedPyodide(places)).toBe('up to date');
    const wasm = path.join(places.source, 'pyodide.asm.wasm');
    writeFileSync(wasm, 'another build of the wasm'.repeat(100));
    utimesSync(wasm, new Date(), new Date(Date.now() + 5000));
    const prepared = precompressedPyodide(places);
    expect(prepared.has('pyodide.asm.wasm')).toBe(false);
    expect(prepared.get('pyodide.mjs')?.siblings.br).toBeDefined();
    expect(await writePrecompressedPyodide(places)).toBe('written');
    expect(precompressedPyodide(places).get('pyodide.asm.wasm')?.siblings.br).toBeDefined();
  });

  it('gives nothing when no copies were made (pybook run from its sources without prepare)', () => {
    expect(precompressedPyodide(fakePyodide()).size).toBe(0);
  });
});
