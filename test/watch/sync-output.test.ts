/**
 * How watch mode's start brings the output folder of an earlier session up to date: only files
 * whose bytes differ are written, what the site no longer has is deleted, and a link inside the
 * folder is never written through.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { entryOf, manifestJson } from '../../src/output/manifest.js';
import { syncOutputWithDisk } from '../../src/watch/sync-output.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'pybook-sync-test-'));
const out = path.join(dir, 'site');
const outside = path.join(dir, 'outside');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const written = new Map<string, string>();
/** A file an earlier build wrote (listed in the folder's manifest, as a build lists it). */
const write = (name: string, text: string) => {
  mkdirSync(path.dirname(path.join(out, name)), { recursive: true });
  writeFileSync(path.join(out, name), text);
  written.set(name, text);
  writeFileSync(
    path.join(out, '.pybook-output'),
    manifestJson([], new Map([...written].map(([n, t]) => [n, entryOf(t)]))),
  );
};

describe('syncOutputWithDisk', () => {
  it('writes what differs, keeps what is the same, deletes what the site no longer has', () => {
    write('index.html', '<p>home</p>');
    write('a/index.html', '<p>old a</p>');
    write('gone/index.html', '<p>gone</p>');
    write('assets/app.1234.js', 'same size');
    const inode = statSync(path.join(out, 'index.html')).ino;

    const changed = syncOutputWithDisk(
      out,
      new Map<string, string | Uint8Array>([
        ['index.html', '<p>home</p>'],
        ['a/index.html', '<p>new a</p>'],
        ['b/index.html', new TextEncoder().encode('<p>b</p>')],
        // Named by its content: the same size is the same file (not read back).
        ['assets/app.1234.js', 'SAME SIZE'],
      ]),
      new Set(['assets/app.1234.js']),
    );

    expect(changed.sort()).toEqual(['a/index.html', 'b/index.html', 'gone/index.html']);
    expect(statSync(path.join(out, 'index.html')).ino).toBe(inode); // not rewritten
    expect(readFileSync(path.join(out, 'a/index.html'), 'utf8')).toBe('<p>new a</p>');
    expect(readFileSync(path.join(out, 'b/index.html'), 'utf8')).toBe('<p>b</p>');
    expect(readFileSync(path.join(out, 'assets/app.1234.js'), 'utf8')).toBe('same size');
    expect(existsSync(path.join(out, 'gone/index.html'))).toBe(false);
  });

  it('replaces a link inside the folder instead of writing through it', () => {
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(outside, 'index.html'), "not pybook's");
    rmSync(path.join(out, 'a'), { recursive: true, force: true });
    symlinkSync(outside, path.join(out, 'a'));
    symlinkSync(path.join(outside, 'index.html'), path.join(out, 'c.html'));

    syncOutputWithDisk(
      out,
      new Map([
        ['a/index.html', '<p>a</p>'],
        ['c.html', '<p>c</p>'],
      ]),
    );

    expect(readFileSync(path.join(outside, 'index.html'), 'utf8')).toBe("not pybook's");
    expect(lstatSync(path.join(out, 'a')).isDirectory()).toBe(true);
    expect(readFileSync(path.join(out, 'a/index.html'), 'utf8')).toBe('<p>a</p>');
    expect(lstatSync(path.join(out, 'c.html')).isFile()).toBe(true);
    expect(readFileSync(path.join(out, 'c.html'), 'utf8')).toBe('<p>c</p>');
  });
});
