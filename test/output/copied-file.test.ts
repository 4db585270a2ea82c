import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CopiedFile, copyOf } from '../../src/output/copied-file.js';
import { MARKER_FILE, markerJson } from '../../src/output/marker.js';
import { writeSiteAtomically } from '../../src/output/write-site.js';
import { syncOutput, syncOutputWithDisk } from '../../src/watch/sync-output.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const fresh = () => (dir = mkdtempSync(path.join(tmpdir(), 'pybook-copied-')));

describe('a site file copied from a file on disk', () => {
  it('is the same object while its source is unchanged, a new one once the source changes', () => {
    fresh();
    const source = path.join(dir, 'runtime.wasm');
    writeFileSync(source, 'first');
    const first = copyOf(source);
    expect(copyOf(source)).toBe(first);
    expect(first.size).toBe(5);
    writeFileSync(source, 'second!');
    const later = new Date(statSync(source).mtimeMs + 2000);
    utimesSync(source, later, later);
    const second = copyOf(source);
    expect(second).not.toBe(first);
    expect(second.size).toBe(7);
  });

  it('is written with its source bytes by a build and by watch mode', () => {
    fresh();
    const source = path.join(dir, 'runtime.wasm');
    const bytes = Buffer.from([0, 1, 2, 255, 10, 13]);
    writeFileSync(source, bytes);
    const out = path.join(dir, 'site');
    const files = new Map<string, string | CopiedFile>([
      [MARKER_FILE, markerJson([])],
      ['assets/runtime.wasm', copyOf(source)],
      ['index.html', '<p>x</p>'],
    ]);
    writeSiteAtomically(out, files, []);
    expect(readFileSync(path.join(out, 'assets/runtime.wasm'))).toEqual(bytes);

    // Watch mode: an unchanged copy is left alone, a changed one written again.
    expect(syncOutput(out, files, new Map(files))).toEqual([]);
    const other = path.join(dir, 'other.wasm');
    writeFileSync(other, 'changed');
    const next = new Map([...files, ['assets/runtime.wasm', new CopiedFile(other, 7)]]);
    expect(syncOutput(out, files, next)).toEqual(['assets/runtime.wasm']);
    expect(readFileSync(path.join(out, 'assets/runtime.wasm'), 'utf8')).toBe('changed');

    // Watch mode's start compares with what is on disk.
    expect(syncOutputWithDisk(out, next)).toEqual([]);
    expect(syncOutputWithDisk(out, files)).toEqual(['assets/runtime.wasm']);
    expect(readFileSync(path.join(out, 'assets/runtime.wasm'))).toEqual(bytes);
  });
});
