import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { Builder } from '../../src/generator/build.js';
import type { SiteFiles } from '../../src/output/write-site.js';
import type { SiteData } from '../../src/shared/model/page.js';
import { createTinyBook, type TinyBook } from '../watch/tiny-book.js';
import { textOf } from '../helpers/built-files.js';

const changedFiles = (before: SiteFiles, after: SiteFiles) =>
  [...new Set([...before.keys(), ...after.keys()])].filter((name) => before.get(name) !== after.get(name)).sort();

let book: TinyBook | undefined;
afterEach(() => {
  if (book) rmSync(book.dir, { recursive: true, force: true });
  book = undefined;
});

/** Watch mode's builder (dev: stable names where possible), as `pybook watch` runs it. */
const devBuilder = (configPath: string) => new Builder({ configPath, mode: 'watch' });

describe('the builder in watch mode', () => {
  it('tells whether an input it read has changed on disk since (a save caught half way)', async () => {
    book = createTinyBook();
    const builder = devBuilder(book.configPath);
    await builder.build();
    expect(builder.inputsChangedOnDisk()).toBe(false);
    const good = readFileSync(book.file('en', 'beta'), 'utf8');
    // The editor has truncated the file when the build reads it.
    writeFileSync(book.file('en', 'beta'), '');
    await expect(builder.build()).rejects.toThrow(/missing front matter/);
    expect(builder.inputsChangedOnDisk()).toBe(false);
    // Then the write lands: the failure was not the author's, and a rebuild succeeds.
    writeFileSync(book.file('en', 'beta'), good);
    expect(builder.inputsChangedOnDisk()).toBe(true);
    await builder.build();
    expect(builder.inputsChangedOnDisk()).toBe(false);
    writeFileSync(book.configPath, readFileSync(book.configPath, 'utf8').replace('Tiny watch book', 'Renamed'));
    expect(builder.inputsChangedOnDisk()).toBe(true);
  });

  it('rewrites only the edited page, its route module and its Markdown (with llms-full.txt) after a one-paragraph edit', async () => {
    book = createTinyBook();
    book.writeConfig(['alpha', 'beta', 'gamma']);
    const builder = devBuilder(book.configPath);
    const first = (await builder.build()).files;
    writeFileSync(book.file('en', 'beta'), `${readFileSync(book.file('en', 'beta'), 'utf8')}\nOne more paragraph.\n`);
    const second = (await builder.build()).files;
    // The chapter as Markdown (src/llms/) changes with it, and so does the whole book's.
    expect(changedFiles(first, second)).toEqual([
      'assets/pages/en/beta.js',
      'beta.md',
      'beta/index.html',
      'llms-full.txt',
    ]);
  });

  it('writes route modules that import as the page data and the same content HTML as the page', async () => {
    book = createTinyBook();
    book.writeConfig(['alpha', 'beta', 'gamma']);
    const source = readFileSync(book.file('en', 'beta'), 'utf8');
    writeFileSync(
      book.file('en', 'beta'),
      `${source}\nQuotes " and \\\\ and \\<angle> and a line\u2028separator.\n\n\`\`\`js\nif (a < b) console.log("</script>");\n\`\`\`\n`,
    );
    const files = (await devBuilder(book.configPath).build()).files;
    const module = textOf(files, 'assets/pages/en/beta.js');
    const { default: route } = (await import(`data:text/javascript,${encodeURIComponent(module)}`)) as {
      default: { page: { title: string }; html: string };
    };
    expect(route.page.title).toBe('Beta chapter');
    expect(route.html).toContain('&lt;angle&gt;');
    expect(route.html).toContain('separator.');
    expect(textOf(files, 'beta/index.html')).toContain(route.html);
    // A module file is not inside a <script> element: its "<" stay one byte each.
    expect(module).not.toContain('\\u003c');
  });

  it('changes every page when only the client-side site data changes, so open tabs reload', async () => {
    book = createTinyBook();
    book.writeConfig(['alpha', 'beta', 'gamma']);
    const first = (await devBuilder(book.configPath).build()).files;
    const config = JSON.parse(readFileSync(book.configPath, 'utf8')) as { search: { maxResults: number } };
    config.search.maxResults = config.search.maxResults + 1;
    writeFileSync(book.configPath, JSON.stringify(config));
    // A config change starts a new builder in watch mode.
    const second = (await devBuilder(book.configPath).build()).files;
    const changed = changedFiles(first, second);
    // Every page; the runner's sandbox document (an asset) does not depend on the site data.
    const pages = [...second.keys()].filter((name) => name.endsWith('.html') && !name.startsWith('assets/'));
    expect(pages.length).toBeGreaterThan(6);
    for (const page of pages) expect(changed).toContain(page);
    const siteFiles = [...second.keys()].filter((name) => name.startsWith('assets/site/'));
    expect(siteFiles).toHaveLength(2);
    for (const name of siteFiles)
      expect((JSON.parse(textOf(second, name)) as SiteData).search.maxResults).toBe(config.search.maxResults);
  });
});
