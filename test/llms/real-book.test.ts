/**
 * The real book's Markdown, as the test run's build wrote it (test/helpers/global-setup.ts): every
 * chapter of both languages parses as plain Markdown and keeps every code block of its chapter
 * byte for byte, in order, and none of its traps; llms-full.txt holds the chapters in sidebar
 * order; every link of the Markdown that stays on the site leads to a file of the build, and a
 * link between chapters to the other chapter's Markdown.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBook } from '../../src/book/load-book.js';
import { pageRoute } from '../../src/book/routes.js';
import { loadConfig } from '../../src/config/load-config.js';
import { chapterMarkdownRoute, LLMS_FULL, LLMS_INDEX, llmsRoute } from '../../src/llms/paths.js';
import { parseWithCodeBodiesHidden } from '../../src/markdown/hide-code-bodies.js';
import { createChapterParser } from '../../src/markdown/parse/parser.js';
import { escapeHeadingIds } from '../../src/markdown/plugins/heading-ids.js';
import { parseCodeMeta } from '../../src/markdown/plugins/code-blocks.js';
import type { BookModel } from '../../src/shared/model/book.js';
import { builtSiteDir } from '../helpers/browser.js';
import { codeBlocksOf, nodesOf, parsePlainMarkdown } from './plain-markdown.js';

const root = path.join(import.meta.dirname, '..', '..');
let book: BookModel;
let site: string;
beforeAll(() => {
  book = loadBook(loadConfig(path.join(root, 'book.config.json')));
  site = builtSiteDir();
});

const fileOfRoute = (route: string) => path.join(site, route.slice(book.config.basePath.length));
const read = (route: string) => readFileSync(fileOfRoute(route), 'utf8');
/** Each file parsed once for all the tests. */
const trees = new Map<string, ReturnType<typeof parsePlainMarkdown>>();
const parsed = (route: string) => {
  let tree = trees.get(route);
  if (!tree) trees.set(route, (tree = parsePlainMarkdown(read(route))));
  return tree;
};

/** A chapter's code blocks as the compiler's parser reads them, traps apart. */
function chapterCode(source: string) {
  const tree = parseWithCodeBodiesHidden(escapeHeadingIds(source), (text) => createChapterParser().parse(text));
  const blocks = codeBlocksOf(tree);
  const isTrap = (meta: string | null | undefined) => parseCodeMeta(meta).exercise === 'trap';
  return {
    shown: blocks.filter((b) => !isTrap(b.meta)).map((b) => ({ lang: b.lang, value: b.value })),
    traps: blocks.filter((b) => isTrap(b.meta)).map((b) => b.value),
  };
}

/** Every chapter of both languages (a missing translation is the default language's text). */
const chapters = () =>
  book.locales.flatMap((locale) => book.chapters[locale.code].map((chapter) => ({ locale, chapter })));

describe("the real book's Markdown", () => {
  it('has every chapter of both languages as plain Markdown that keeps its code blocks byte for byte, and no trap', () => {
    let blocks = 0;
    let traps = 0;
    for (const { locale, chapter } of chapters()) {
      const name = `${locale.code}/${chapter.slug}`;
      const route = chapterMarkdownRoute(book.config.basePath, locale, chapter.slug);
      const markdown = read(route);
      const tree = parsed(route);
      // Nothing of MDX is left: a component or tag would be an html node to a Markdown reader.
      expect(
        nodesOf(tree)
          .filter((node) => node.type === 'html')
          .map((node) => ('value' in node ? node.value : '')),
        name,
      ).toEqual([]);
      expect(tree.children[0], name).toMatchObject({ type: 'heading', depth: 1 });
      const expected = chapterCode(chapter.source);
      const found = codeBlocksOf(tree).map((b) => ({ lang: b.lang, value: b.value }));
      expect(found, name).toEqual(expected.shown);
      for (const trap of expected.traps) expect(markdown.includes(trap), `${name}: a trap is shown`).toBe(false);
      blocks += found.length;
      traps += expected.traps.length;
    }
    // The book's code really was there to compare (about a hundred chapters).
    expect(blocks).toBeGreaterThan(2000);
    expect(traps).toBeGreaterThan(100);
  });

  it("has per language an llms-full.txt that holds the sidebar's chapters in its order, each as its own file", () => {
    for (const locale of book.locales) {
      const full = read(llmsRoute(book.config.basePath, locale, LLMS_FULL));
      const index = read(llmsRoute(book.config.basePath, locale, LLMS_INDEX));
      const listed = [...index.matchAll(/^- \[[^\]]+\]\(([^)]+)\)/gm)].map((m) => m[1]);
      expect(listed.length).toBeGreaterThan(40);
      let at = 0;
      for (const url of listed) {
        const chapter = read(url.slice(book.config.siteUrl.length));
        const found = full.indexOf(chapter, at);
        expect(found, `${url} is in ${locale.code}'s llms-full.txt after the chapter before it`).toBeGreaterThanOrEqual(
          at,
        );
        at = found + chapter.length;
      }
      expect(full.startsWith(`# ${index.split('\n')[0].slice(2)}\n`)).toBe(true);
      // It parses as one Markdown document whose code is the chapters' code.
      expect(codeBlocksOf(parsePlainMarkdown(full)).length).toBe(
        listed.reduce(
          (sum, url) => sum + codeBlocksOf(parsePlainMarkdown(read(url.slice(book.config.siteUrl.length)))).length,
          0,
        ),
      );
    }
  });

  it("links within the site lead to files of the build, and between chapters to the other chapter's Markdown", () => {
    const origin = book.config.siteUrl + book.config.basePath;
    let checked = 0;
    for (const locale of book.locales) {
      const search = book.config.siteUrl + pageRoute(book.config.basePath, locale, 'search');
      // llms-full.txt is the chapters' files one after the other (see above).
      const files = [
        llmsRoute(book.config.basePath, locale, LLMS_INDEX),
        ...book.chapters[locale.code].map((c) => chapterMarkdownRoute(book.config.basePath, locale, c.slug)),
      ];
      for (const file of files) {
        for (const node of nodesOf(parsed(file))) {
          if (!('url' in node)) continue;
          expect(node.url, `${file}: a relative URL`).toMatch(/^[a-z]+:/);
          if (!node.url.startsWith(origin)) continue;
          const target = node.url.replace(/[?#].*$/, '');
          if (target === search) continue;
          // A page's URL would end in "/": within the site, the Markdown leads only to Markdown and files.
          expect(target, `${file} links to a page`).not.toMatch(/\/$/);
          expect(existsSync(fileOfRoute(target.slice(book.config.siteUrl.length))), `${file} -> ${node.url}`).toBe(
            true,
          );
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });
});
