import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Builder } from '../../src/generator/build.js';
import { writeSiteAtomically } from '../../src/output/write-site.js';
import { runBuild } from '../../src/cli/build.js';
import { chapter, createFixtureBook, type FixtureBook } from '../fixtures/fixture-book.js';

/**
 * Every file under `dir` (relative path -> sha256), to compare whole folders; but for
 * .pybook-written, which says when the files were written and so differs from build to build.
 */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const name of readdirSync(path.join(dir, sub)).sort()) {
      const rel = sub ? `${sub}/${name}` : name;
      if (rel === '.pybook-written') continue;
      if (statSync(path.join(dir, rel)).isDirectory()) walk(rel);
      else
        out[rel] = createHash('sha256')
          .update(readFileSync(path.join(dir, rel)))
          .digest('hex');
    }
  };
  walk('');
  return out;
}

let fixture: FixtureBook;
let outRoot: string;

beforeAll(async () => {
  fixture = await createFixtureBook({
    chapters: {
      en: {
        intro: chapter(
          'Intro',
          '## Tabs\n\n<Tabs>\n<TabItem value="a" label="A">\n\nOne\n\n</TabItem>\n<TabItem value="b" label="B">\n\nTwo\n\n</TabItem>\n</Tabs>\n\n```python\nprint({"b", "a"})\n```',
        ),
        sets: chapter('Sets', '## Set order\n\nSee [intro](./intro.mdx#tabs).'),
      },
      'zh-cn': { intro: chapter('介绍', '## 标签页 {#tabs}\n\n中文分词的搜索索引也必须每次相同。') },
    },
  });
  outRoot = await mkdtemp(path.join(os.tmpdir(), 'pybook-out-'));
});
afterAll(async () => {
  await fixture.remove();
  await rm(outRoot, { recursive: true, force: true });
});

describe('determinism', () => {
  it('two builds of the same input produce byte-identical output', async () => {
    const first = path.join(outRoot, 'first');
    const second = path.join(outRoot, 'second');
    for (const dir of [first, second]) {
      const result = await new Builder({ configPath: fixture.configPath }).build();
      writeSiteAtomically(dir, result.files, result.staticDirs);
    }
    const a = snapshot(first);
    expect(Object.keys(a).length).toBeGreaterThan(20);
    expect(snapshot(second)).toEqual(a);
  });
});

describe('streamed documents (pybook build)', () => {
  it('writes the same site as a build that keeps every document in memory, each rendered only when written', async () => {
    const kept = path.join(outRoot, 'kept');
    const streamedDir = path.join(outRoot, 'streamed');
    const whole = await new Builder({ configPath: fixture.configPath }).build();
    writeSiteAtomically(kept, whole.files, whole.staticDirs);
    const streaming = await new Builder({ configPath: fixture.configPath, mode: 'streamed' }).build();
    // No page's document is in `files`: they are made one at a time as the writer reads them.
    const pageFiles = whole.pages.map((p) => p.outputFile);
    expect(pageFiles.length).toBeGreaterThan(5);
    expect(pageFiles.filter((name) => streaming.files.has(name))).toEqual([]);
    const rendered: string[] = [];
    const documents = (function* () {
      for (const [name, html] of streaming.documents!) {
        rendered.push(name);
        expect(existsSync(path.join(`${streamedDir}.staging-${process.pid}`, name))).toBe(false);
        yield [name, html] as [string, string];
      }
    })();
    writeSiteAtomically(streamedDir, streaming.files, streaming.staticDirs, { streamed: documents });
    // The service worker (src/offline/) comes last: it lists the revisions of the pages written before it.
    expect(rendered.at(-1)).toBe('sw.js');
    expect(rendered.slice(0, -1).sort()).toEqual([...pageFiles].sort());
    expect(snapshot(streamedDir)).toEqual(snapshot(kept));
  });

  it('a document that fails to render leaves the previous output folder as it was', () => {
    const outDir = path.join(outRoot, 'streamed-failure');
    writeSiteAtomically(outDir, new Map([['index.html', 'old']]), []);
    const before = snapshot(outDir);
    const failing = (function* (): Generator<[string, string]> {
      yield ['a/index.html', 'new a'];
      throw new Error('rendering failed');
    })();
    expect(() => writeSiteAtomically(outDir, new Map([['index.html', 'new']]), [], { streamed: failing })).toThrow(
      'rendering failed',
    );
    expect(snapshot(outDir)).toEqual(before);
    expect(readdirSync(outRoot).filter((name) => name.startsWith('streamed-failure'))).toEqual(['streamed-failure']);
  });
});

describe('a failed build', () => {
  it('leaves the previous output folder exactly as it was', async () => {
    const outDir = path.join(outRoot, 'site');
    await runBuild({ config: fixture.configPath, outDir, quiet: true });
    const before = snapshot(outDir);
    expect(before['intro/index.html']).toBeDefined();

    await fixture.writeChapter('en', 'sets', chapter('Sets', 'A [broken link](./nowhere.mdx).'));
    await expect(runBuild({ config: fixture.configPath, outDir, quiet: true })).rejects.toThrow(
      'broken link "./nowhere.mdx"',
    );
    await fixture.writeChapter('en', 'sets', chapter('Sets', 'An expression {oops}.'));
    await expect(runBuild({ config: fixture.configPath, outDir, quiet: true })).rejects.toThrow(
      /JavaScript expressions are not allowed/,
    );

    expect(snapshot(outDir)).toEqual(before);
    // No staging or retired folders are left next to it.
    expect(readdirSync(outRoot).filter((name) => name.startsWith('site'))).toEqual(['site']);
    await fixture.writeChapter('en', 'sets', chapter('Sets', '## Set order\n\nSee [intro](./intro.mdx#tabs).'));
  });

  it('writeSiteAtomically keeps the old folder when writing fails part way', () => {
    const outDir = path.join(outRoot, 'atomic');
    writeSiteAtomically(
      outDir,
      new Map([
        ['index.html', 'old'],
        ['a/index.html', 'old a'],
      ]),
      [],
    );
    const before = snapshot(outDir);
    // "clash" cannot be both a file and a folder: the second write fails after the first succeeded.
    const files = new Map<string, string>([
      ['index.html', 'new'],
      ['clash', 'x'],
      ['clash/index.html', 'y'],
    ]);
    expect(() => writeSiteAtomically(outDir, files, [])).toThrow();
    expect(snapshot(outDir)).toEqual(before);
    expect(readdirSync(outRoot).filter((name) => name.startsWith('atomic'))).toEqual(['atomic']);
  });

  it('a successful build replaces the folder, dropping files of the previous build', () => {
    const outDir = path.join(outRoot, 'replace');
    writeSiteAtomically(outDir, new Map([['stale.html', 'old']]), []);
    writeSiteAtomically(outDir, new Map([['index.html', 'new']]), [path.join(fixture.root, 'book', 'static')]);
    const written = snapshot(outDir);
    expect(Object.keys(written).sort()).toEqual(['.pybook-output', 'img/logo.svg', 'index.html']);
    expect(written['index.html']).toBe(createHash('sha256').update('new').digest('hex'));
    expect(existsSync(path.join(outDir, 'stale.html'))).toBe(false);
  });
});

describe('the build summary', () => {
  it('counts pages, locales and chapters that fall back to English', async () => {
    const outDir = path.join(outRoot, 'summary');
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const warned: string[] = [];
    const errSpy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      warned.push(String(chunk));
      return true;
    });
    let summary;
    try {
      summary = await runBuild({ config: fixture.configPath, outDir });
    } finally {
      spy.mockRestore();
      errSpy.mockRestore();
    }
    // The one warning: this book was never checked in the browser, so its examples have no Run button.
    expect(summary).toMatchObject({
      pages: 10,
      locales: ['en', 'zh-cn'],
      warnings: 1,
      fallbacks: { en: 0, 'zh-cn': 1 },
    });
    expect(warned.join('')).toMatch(
      /examples? ha(s|ve) no Run button: .*checked-in-browser\.json does not exist; run `npx pybook check`/,
    );
    const line = written.join('');
    expect(line).toMatch(
      new RegExp(
        `^Built 10 pages in 2 locales \\(en, zh-cn\\) into ${outDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/ in \\d+ ms, 1 warning\\. 1 chapter in zh-cn falls back to en\\.\\n$`,
      ),
    );
  });
});
