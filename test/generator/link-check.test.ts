import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Builder } from '../../src/generator/build.js';
import { checkLinks, findDuplicateRoutes } from '../../src/pages/check-links.js';
import type { PageModel } from '../../src/shared/model/page.js';
import { BookErrors, formatError } from '../../src/core/errors.js';
import { chapter, createFixtureBook, type FixtureBook } from '../fixtures/fixture-book.js';

let fixture: FixtureBook | undefined;
afterEach(async () => {
  await fixture?.remove();
  fixture = undefined;
});

async function buildFailure(options: Parameters<typeof createFixtureBook>[0]): Promise<unknown> {
  fixture = await createFixtureBook(options);
  try {
    await new Builder({ configPath: fixture.configPath }).build();
  } catch (error) {
    return error;
  }
  throw new Error('expected the build to fail');
}

describe('broken links fail the build', () => {
  it('listing every broken link with file:line, in both languages', async () => {
    const error = await buildFailure({
      chapters: {
        en: {
          intro: chapter('Intro', 'See [gone](./gone.mdx).\n\nAnd [also gone](/fixture-guide/nowhere/#x).'),
          other: chapter('Other', 'Back to [intro](./intro.mdx).\n\nA [typo](./intor.mdx).'),
        },
        'zh-cn': { intro: chapter('介绍', '见[不存在](./missing-zh.mdx)。') },
      },
    });
    expect(error).toBeInstanceOf(BookErrors);
    const errors = (error as BookErrors).errors;
    const listed = errors.map(
      (e) =>
        `${path.basename(path.dirname(e.position!.file))}/${path.basename(e.position!.file)}:${e.position!.line} ${e.message}`,
    );
    expect(listed.sort()).toEqual(
      [
        'en/intro.mdx:5 broken link "./gone.mdx": there is no chapter "gone"',
        'en/intro.mdx:7 broken link "/fixture-guide/nowhere/#x": there is no chapter "nowhere"',
        // "other" falls back to English in Chinese: one file, so its broken link is listed once.
        'en/other.mdx:7 broken link "./intor.mdx": there is no chapter "intor"',
        'zh-cn/intro.mdx:5 broken link "./missing-zh.mdx": there is no chapter "missing-zh"',
      ].sort(),
    );
    expect(formatError(error)).toMatch(/book\/en\/intro\.mdx:5:5: broken link "\.\/gone\.mdx"/);
  });

  it('a link to the 404 page is broken too', async () => {
    const error = await buildFailure({ chapters: { en: { intro: chapter('Intro', '[x](/fixture-guide/404)') } } });
    expect(formatError(error)).toContain('broken link "/fixture-guide/404"');
  });

  it('a compile error in several chapters reports each of them', async () => {
    const error = await buildFailure({
      chapters: { en: { a: chapter('A', '{1 + 1}'), b: chapter('B', '<Widget />') } },
    });
    expect(error).toBeInstanceOf(BookErrors);
    const text = formatError(error);
    // Both chapters, in both languages (Chinese falls back to the same files).
    expect(text).toMatch(/book\/en\/a\.mdx:5:1: JavaScript expressions are not allowed/);
    expect(text).toMatch(/book\/en\/b\.mdx:5:1: unknown component <Widget>/);
  });
});

describe('links that only warn', () => {
  it('a broken anchor is a warning with file and line; links to the home page and search page are fine', async () => {
    fixture = await createFixtureBook({
      chapters: {
        en: {
          intro: chapter(
            'Intro',
            '## Here\n\n[a](#here) [b](#gone) [home](/fixture-guide/) [search](/fixture-guide/search/)',
          ),
        },
      },
    });
    const result = await new Builder({ configPath: fixture.configPath }).build();
    const anchors = result.warnings.filter((w) => w.message.startsWith('broken anchor'));
    // The Chinese page falls back to the same file: one warning, not one per locale.
    expect(anchors.map((w) => `${w.line}:${w.column} ${w.message}`)).toEqual([
      '7:12 broken anchor "#gone": "intro" has no heading with id "gone"',
    ]);
  });

  it('a chapter whose route is taken by a built-in page is an error naming where it is named (safety round 3: no longer a warning)', async () => {
    fixture = await createFixtureBook({ chapters: { en: { intro: chapter('Intro'), search: chapter('Searching') } } });
    const error = await new Builder({ configPath: fixture.configPath }).build().then(
      () => undefined,
      (e: unknown) => e,
    );
    // The sidebar names the chapter: the error points there.
    expect(formatError(error)).toMatch(
      /book\.config\.json: "search" is a name the site uses for its own pages and files/,
    );
  });
});

describe('checkLinks and findDuplicateRoutes on page models', () => {
  const page = (over: Partial<PageModel>): PageModel => ({
    kind: 'chapter',
    locale: 'en',
    slug: 'a',
    route: '/b/a/',
    outputFile: 'a/index.html',
    title: 'A',
    documentTitle: 'A | B',
    description: '',
    keywords: [],
    toc: [],
    breadcrumbs: [],
    unlisted: false,
    fallback: false,
    alternates: [],
    headings: [],
    links: [],
    sections: [],
    warnings: [],
    sourceFile: '/book/en/a.mdx',
    ...over,
  });

  it("links are checked within the page's own locale", () => {
    const pages = [
      page({ links: [{ targetSlug: 'only-zh', written: './only-zh.mdx', line: 3, column: 1 }] }),
      page({ locale: 'zh-cn', slug: 'only-zh', route: '/b/zh-cn/only-zh/' }),
    ];
    const report = checkLinks(pages);
    expect(report.errors.map((e) => e.message)).toEqual(['broken link "./only-zh.mdx": there is no chapter "only-zh"']);
  });

  it('an anchor to an existing heading passes', () => {
    const pages = [
      page({ links: [{ targetSlug: 'b', anchor: 'x', written: './b.mdx#x', line: 1, column: 1 }] }),
      page({ slug: 'b', route: '/b/b/', headings: [{ depth: 2, text: 'X', id: 'x', line: 1 }] }),
    ];
    expect(checkLinks(pages)).toEqual({ errors: [], warnings: [] });
  });

  it("two pages on one route are an error naming the second page's file (safety round 3: no longer a warning)", () => {
    const errors = findDuplicateRoutes([page({}), page({ sourceFile: '/book/en/a-copy.mdx' })]);
    expect(errors.map((e) => [e.position?.file, e.message])).toEqual([
      ['/book/en/a-copy.mdx', 'duplicate route /b/a/ (also produced by /book/en/a.mdx)'],
    ]);
  });

  it('routes that differ only by case are one route on case-insensitive hosts: an error', () => {
    const errors = findDuplicateRoutes([page({}), page({ route: '/b/A/', sourceFile: '/book/en/upper.mdx' })]);
    expect(errors.map((e) => e.message)).toEqual(['duplicate route /b/A/ (also produced by /book/en/a.mdx)']);
  });
});
