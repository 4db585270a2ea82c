/**
 * How `pybook watch` starts: from the build cache on disk (the compiled chapters `pybook build`
 * keeps, and the content HTML its own last start rendered), serving before the search index
 * exists and building it after, without spoiling the cache for `pybook build`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startWatch, type WatchSession } from '../../src/cli/watch.js';
import { bytesOf } from '../../src/output/copied-file.js';
import { Builder, type BuildResult } from '../../src/generator/build.js';
import { cacheFolderOf } from '../../src/cache/disk-cache.js';
import { writeSiteAtomically } from '../../src/output/write-site.js';
import { createTinyBook } from './tiny-book.js';

const book = createTinyBook();
// The tiny book has no node_modules/: its build cache is in the user's cache folder (see cacheFolderOf).
const cacheDir = (({ base, parts }) => path.join(base, ...parts))(cacheFolderOf(book.dir));
const entries = (namespace: string) =>
  existsSync(path.join(cacheDir, namespace)) ? readdirSync(path.join(cacheDir, namespace)).sort() : [];
const digest = (result: BuildResult) =>
  Object.fromEntries(
    [...result.files.entries()].map(([name, contents]) => [
      name,
      createHash('sha256').update(bytesOf(contents)).digest('hex'),
    ]),
  );

let session: WatchSession | undefined;
afterAll(async () => {
  await session?.close();
  rmSync(book.dir, { recursive: true, force: true });
});

async function until(check: () => boolean | Promise<boolean>, what: string, log: string[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; log:\n${log.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function start(log: string[]): Promise<WatchSession> {
  session = await startWatch(
    { config: book.configPath, outDir: path.join(book.dir, 'site'), port: 0, host: '127.0.0.1' },
    (line) => log.push(line),
  );
  return session;
}

describe('pybook watch start', () => {
  it('serves first, then builds the search index, and leaves the build cache as `pybook build` wants it', async () => {
    // A `pybook build` first: its search index entry must survive the watch session.
    await new Builder({ configPath: book.configPath, diskCache: true }).build();
    const buildSearchEntries = entries('search');
    expect(buildSearchEntries).toHaveLength(1);

    const log: string[] = [];
    const first = await start(log);
    const ready = log.findIndex((line) => /^Ready in \d+ ms: watching \S+ — serving at http:\/\/\S+$/.test(line));
    expect(ready, log.join('\n')).toBeGreaterThanOrEqual(0);
    // The search index comes after the server is ready, by itself (nothing asks for it here).
    await until(() => log.some((line) => /^search index ready \(\d+ ms\)$/.test(line)), 'the search index', log);
    expect(log.findIndex((line) => line.startsWith('search index ready'))).toBeGreaterThan(ready);
    const index = await fetch(`${first.server.url}search-index.json`);
    expect(index.status).toBe(200);
    expect(JSON.stringify(await index.json())).toContain('Alpha chapter');
    await first.close();
    session = undefined;

    // The compiled chapters and their content HTML are in the cache, the build's search entry is
    // still there, and watch mode's own search entry (full dictionary) sits beside it.
    expect(entries('chapters')).toHaveLength(6); // 3 chapters x 2 locales
    expect(entries('content')).toHaveLength(6);
    expect(entries('documents')).toHaveLength(6);
    expect(entries('modules')).toHaveLength(6);
    expect(entries('search')).toEqual(expect.arrayContaining(buildSearchEntries));
    expect(entries('search').filter((name) => name.startsWith('dev-'))).toHaveLength(1);

    // And a build from that cache is the same as a build without any.
    const cached = digest(await new Builder({ configPath: book.configPath, diskCache: true }).build());
    expect(cached).toEqual(digest(await new Builder({ configPath: book.configPath }).build()));
  });

  it('starts from the compiled chapters, content and pages on disk, and renders them again when the site data changes', async () => {
    // Mark entries of the cache: the English alpha's compiled chapter (its word count gives the
    // page's reading time) and its rendered content, and beta's page and route module. A start
    // that compiled or rendered them again would not show the marks.
    const mark = (namespace: string, of: string, edit: (text: string) => string) => {
      let marked = 0;
      for (const name of entries(namespace)) {
        const file = path.join(cacheDir, namespace, name);
        const text = readFileSync(file, 'utf8');
        if (!text.includes(of)) continue;
        writeFileSync(file, edit(text));
        marked += 1;
      }
      return marked;
    };
    expect(
      mark('chapters', 'Paragraph 1 of alpha', (text) => text.replace(/"wordCount":\d+/, '"wordCount":4321000')),
    ).toBe(1);
    expect(
      mark('content', 'Paragraph 1 of alpha', (text) =>
        text.replaceAll('Paragraph 1 of alpha', 'Paragraph 1 from the content cache'),
      ),
    ).toBe(1);
    expect(
      mark('documents', 'Paragraph 1 of beta', (text) =>
        text.replaceAll('Paragraph 1 of beta', 'Paragraph 1 from the page cache'),
      ),
    ).toBe(1);
    expect(
      mark('modules', 'Paragraph 1 of beta', (text) =>
        text.replaceAll('Paragraph 1 of beta', 'Paragraph 1 from the module cache'),
      ),
    ).toBe(1);

    // The output folder of the last session is brought up to date in place: what the site no
    // longer has goes. Here an earlier build wrote a page gone/ that this book does not have.
    const earlier = await new Builder({ configPath: book.configPath }).build();
    writeSiteAtomically(
      path.join(book.dir, 'site'),
      new Map([...earlier.files, ['gone/index.html', '<p>a page the site no longer has</p>']]),
      [],
    );
    expect(existsSync(path.join(book.dir, 'site', 'gone', 'index.html'))).toBe(true);

    const log: string[] = [];
    const second = await start(log);
    expect(existsSync(path.join(book.dir, 'site', 'gone', 'index.html'))).toBe(false);
    const page = await (await fetch(`${second.server.url}alpha/`)).text();
    expect(page).toContain('21605 min read'); // 4,321,000 words at 200 a minute
    expect(page).toContain('Paragraph 1 from the content cache');
    expect(await (await fetch(`${second.server.url}beta/`)).text()).toContain('Paragraph 1 from the page cache');
    expect(await (await fetch(`${second.server.url}assets/pages/en/beta.js`)).text()).toContain(
      'Paragraph 1 from the module cache',
    );

    // A search asked for before the index is out gets it, built on demand, not a 404: the texts
    // of a result's page (asked for first here) as well as the index.
    const texts = await fetch(`${second.server.url}zh-cn/search-text/0.json`);
    expect(texts.status).toBe(200);
    expect(await texts.json()).toMatchObject({ v: 2, first: 0 });
    const index = await fetch(`${second.server.url}zh-cn/search-index.json`);
    expect(index.status).toBe(200);
    expect(JSON.stringify(await index.json())).toContain('阿尔法章节');
    await until(() => log.some((line) => line.startsWith('search index ready')), 'the search step', log);
    expect(log.filter((line) => line.startsWith('error'))).toEqual([]);
    await second.close();
    session = undefined;

    // New site data (the book's title is in it): the content is rendered again, the chapter is not compiled again.
    book.writeConfig(['alpha', 'beta', 'gamma'], 'Retitled watch book');
    const third = await start([]);
    const retitled = await (await fetch(`${third.server.url}alpha/`)).text();
    expect(retitled).toContain('Retitled watch book');
    expect(retitled).toContain('21605 min read');
    expect(retitled).not.toContain('from the content cache');
    expect(retitled).toContain('Paragraph 1 of alpha');
    expect(await (await fetch(`${third.server.url}beta/`)).text()).not.toContain('from the page cache');
    expect(await (await fetch(`${third.server.url}assets/pages/en/beta.js`)).text()).not.toContain(
      'from the module cache',
    );
  });
});
