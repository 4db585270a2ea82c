import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { DiskCache } from '../../src/cache/disk-cache.js';
import { addPrecompressedSiblings, withPrecompressedSiblings } from '../../src/generator/precompress.js';
import { CopiedFile, bytesOf, type FileContents } from '../../src/output/copied-file.js';
import type { SiteFiles } from '../../src/output/write-site.js';
import { textOf } from '../helpers/built-files.js';

const SCRIPT = 'export function greet(name) { return `Hello, ${name}!`; }\n'.repeat(400);
const SEARCH = JSON.stringify({
  docs: Array.from({ length: 300 }, (_, id) => ({ id, title: `Chapter ${id}`, text: 'dict and Map compared' })),
});

const folders: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pybook-precompress-'));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('addPrecompressedSiblings', () => {
  it('writes .br and .gz siblings that decompress to the file, for text, JSON and a copied wasm', async () => {
    const wasm = path.join(scratch(), 'engine.wasm');
    writeFileSync(wasm, Buffer.concat([Buffer.from('\0asm\x01\0\0\0'), Buffer.from(SCRIPT)]));
    const files: SiteFiles = new Map<string, FileContents>([
      ['assets/app.js', SCRIPT],
      ['search-index.json', Buffer.from(SEARCH)],
      ['assets/pyodide/engine.wasm', new CopiedFile(wasm, statSync(wasm).size)],
    ]);
    await addPrecompressedSiblings(files, new DiskCache(undefined));
    for (const name of ['assets/app.js', 'search-index.json', 'assets/pyodide/engine.wasm']) {
      const original = Buffer.from(bytesOf(files.get(name)!));
      const br = files.get(`${name}.br`) as Buffer;
      const gz = files.get(`${name}.gz`) as Buffer;
      expect(br.length).toBeLessThan(original.length / 4);
      expect(zlib.brotliDecompressSync(br).equals(original)).toBe(true);
      expect(zlib.gunzipSync(gz).equals(original)).toBe(true);
    }
  });

  it('leaves small files, images, fonts and what does not shrink (a deflated zip) alone', async () => {
    const files: SiteFiles = new Map<string, string | Uint8Array>([
      ['robots.txt', 'User-agent: *\n'],
      ['assets/logo.png', Buffer.from(SCRIPT)],
      ['assets/font.woff2', Buffer.from(SCRIPT)],
      ['assets/python_stdlib.zip', randomBytes(64 * 1024)],
    ]);
    await addPrecompressedSiblings(files, new DiskCache(undefined));
    expect([...files.keys()].sort()).toEqual([
      'assets/font.woff2',
      'assets/logo.png',
      'assets/python_stdlib.zip',
      'robots.txt',
    ]);
  });

  it("keeps a sibling the site has already (Pyodide's, compressed at install) and makes only the missing one", async () => {
    const files: SiteFiles = new Map<string, FileContents>([
      ['assets/pyodide/engine.wasm', Buffer.from(SCRIPT)],
      ['assets/pyodide/engine.wasm.br', Buffer.from('made at install')],
    ]);
    await addPrecompressedSiblings(files, new DiskCache(undefined));
    expect(textOf(files, 'assets/pyodide/engine.wasm.br')).toBe('made at install');
    expect(zlib.gunzipSync(files.get('assets/pyodide/engine.wasm.gz') as Buffer).toString()).toBe(SCRIPT);
  });

  it('takes siblings from the build cache by content, and drops the entries no longer used', async () => {
    const cacheDir = scratch();
    await addPrecompressedSiblings(new Map([['assets/app.js', SCRIPT]]), new DiskCache(cacheDir));
    const entries = readdirSync(path.join(cacheDir, 'precompressed'));
    expect(entries).toHaveLength(2);
    // Stand-ins in the cache prove the next build reads them instead of compressing again.
    for (const entry of entries) writeFileSync(path.join(cacheDir, 'precompressed', entry), `cached ${entry}`);
    const again: SiteFiles = new Map([['assets/app.js', SCRIPT]]);
    await addPrecompressedSiblings(again, new DiskCache(cacheDir));
    expect(textOf(again, 'assets/app.js.br')).toMatch(/^cached [0-9a-f]+\.br$/);

    // The same name with other bytes is another entry; the old ones go.
    await addPrecompressedSiblings(new Map([['assets/app.js', `${SCRIPT}// changed\n`]]), new DiskCache(cacheDir));
    const after = readdirSync(path.join(cacheDir, 'precompressed'));
    expect(after).toHaveLength(2);
    expect(after.some((entry) => entries.includes(entry))).toBe(false);
  });
});

describe('withPrecompressedSiblings', () => {
  it('follows each streamed page with its siblings, and leaves a small one alone', () => {
    const page = `<!doctype html><main>${'<p>dict() and {} literals</p>'.repeat(200)}</main>`;
    let rendered = 0;
    const documents = (function* () {
      rendered += 1;
      yield ['dictionary/index.html', page] as [string, string];
      rendered += 1;
      yield ['404.html', '<h1>Not found</h1>'] as [string, string];
    })();
    const written = withPrecompressedSiblings(documents);
    expect(written.next().value).toEqual(['dictionary/index.html', page]);
    const [brName, br] = written.next().value as [string, Buffer];
    const [gzName, gz] = written.next().value as [string, Buffer];
    // Made one page at a time: the next page is not rendered before this one's siblings are out.
    expect(rendered).toBe(1);
    expect([brName, gzName]).toEqual(['dictionary/index.html.br', 'dictionary/index.html.gz']);
    expect(zlib.brotliDecompressSync(br).toString()).toBe(page);
    expect(zlib.gunzipSync(gz).toString()).toBe(page);
    expect([...written].map(([name]) => name)).toEqual(['404.html']);
  });
});
