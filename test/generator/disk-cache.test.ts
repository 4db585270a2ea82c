import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesOf } from '../../src/output/copied-file.js';
import { Builder, type BuildResult } from '../../src/generator/build.js';
import { cacheFolderOf } from '../../src/cache/disk-cache.js';
import { chapter, createFixtureBook, type FixtureBook } from '../fixtures/fixture-book.js';
import { textOf } from '../helpers/built-files.js';

const digest = (result: BuildResult) =>
  Object.fromEntries(
    [...result.files.entries()].map(([name, contents]) => [
      name,
      createHash('sha256').update(bytesOf(contents)).digest('hex'),
    ]),
  );

/** The fixture book has no node_modules: its cache is in the user's cache folder (see cacheFolderOf). */
const bookCache = (root: string) => {
  const { base, parts } = cacheFolderOf(root);
  return path.join(base, ...parts);
};

let fixture: FixtureBook;
beforeAll(async () => {
  fixture = await createFixtureBook({
    chapters: {
      en: {
        intro: chapter('Intro', '## Start\n\nHello `dict`.\n\n```python\nprint(1)\n```'),
        sets: chapter('Sets', '## Union\n\nSee [intro](./intro.mdx#start).'),
      },
      'zh-cn': { intro: chapter('介绍', '## 开始 {#start}\n\n你好，字典。') },
    },
  });
});
afterAll(() => fixture.remove());

describe('the build cache on disk', () => {
  it('gives byte-identical output to a build without it, cold and warm, and follows edits', async () => {
    const uncached = digest(await new Builder({ configPath: fixture.configPath }).build());
    const cacheDir = bookCache(fixture.root);
    expect(existsSync(cacheDir)).toBe(false);

    const cold = digest(await new Builder({ configPath: fixture.configPath, diskCache: true }).build());
    expect(readdirSync(path.join(cacheDir, 'chapters')).length).toBe(4); // 2 chapters x 2 locales (a fallback is compiled per locale)
    expect(readdirSync(path.join(cacheDir, 'search')).length).toBe(1);
    const warm = digest(await new Builder({ configPath: fixture.configPath, diskCache: true }).build());
    expect(cold).toEqual(uncached);
    expect(warm).toEqual(uncached);

    // An edited chapter is compiled again (the old entry is pruned), and the output shows it.
    await fixture.writeChapter('en', 'sets', chapter('Sets', '## Intersection\n\nSee [intro](./intro.mdx#start).'));
    const edited = await new Builder({ configPath: fixture.configPath, diskCache: true }).build();
    expect(textOf(edited.files, 'sets/index.html')).toContain('id="intersection"');
    expect(readdirSync(path.join(cacheDir, 'chapters')).length).toBe(4); // 2 chapters x 2 locales (a fallback is compiled per locale)
    expect(digest(edited)).toEqual(digest(await new Builder({ configPath: fixture.configPath }).build()));
  });

  it("keeps each chapter's rendered content, so a warm `pybook build` reads it back instead of rendering it again", async () => {
    const cacheDir = bookCache(fixture.root);
    await new Builder({ configPath: fixture.configPath, diskCache: true }).build();
    const content = path.join(cacheDir, 'build-content');
    const entries = readdirSync(content);
    expect(entries).toHaveLength(4); // one per compiled chapter: 2 chapters x 2 locales
    // Mark every entry: the next build's pages show the marks, so the HTML came from the cache.
    for (const name of entries)
      writeFileSync(path.join(content, name), `${readFileSync(path.join(content, name), 'utf8')}<p>from the cache</p>`);
    const warm = await new Builder({ configPath: fixture.configPath, diskCache: true }).build();
    expect(textOf(warm.files, 'intro/index.html')).toContain('<p>from the cache</p>');
    expect(textOf(warm.files, 'zh-cn/intro/index.html')).toContain('<p>from the cache</p>');
  });

  it("keeps the chapters' documents too: a warm `pybook build` (documents streamed) reads them back, and renders an edited chapter's again", async () => {
    const cacheDir = bookCache(fixture.root);
    const streamedBuild = async () => {
      const result = await new Builder({
        configPath: fixture.configPath,
        diskCache: true,
        mode: 'streamed',
      }).build();
      return new Map([...result.documents!]);
    };
    await streamedBuild();
    const documents = path.join(cacheDir, 'build-documents');
    expect(readdirSync(documents)).toHaveLength(4); // one per chapter page: 2 chapters x 2 locales
    for (const name of readdirSync(documents))
      writeFileSync(
        path.join(documents, name),
        readFileSync(path.join(documents, name), 'utf8').replace('</body>', '<p>document from the cache</p></body>'),
      );
    const warm = await streamedBuild();
    expect(warm.get('intro/index.html')).toContain('document from the cache');
    expect(warm.get('zh-cn/sets/index.html')).toContain('document from the cache');

    await fixture.writeChapter('en', 'intro', chapter('Intro', '## Start\n\nHello `set`.'));
    const edited = await streamedBuild();
    expect(edited.get('intro/index.html')).toContain('Hello <code>set</code>');
    expect(edited.get('intro/index.html')).not.toContain('document from the cache');
    // Read to the end, the stream prunes the entry of the page as it was.
    expect(readdirSync(documents)).toHaveLength(4);
  });
});
