import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import remarkMdx from 'remark-mdx';
import remarkDirective from 'remark-directive';
import { unified } from 'unified';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { describe, expect, it } from 'vitest';
import { delimiterRowsOf, remarkGfmTables } from '../../src/markdown/plugins/gfm-tables.js';
import { renderBody } from '../fixtures/render.js';
import { expectSameTreeForEveryChapter } from '../helpers/book-chapters.js';
import { markdownCases } from '../helpers/markdown-cases.js';

describe('GFM tables', () => {
  it('render as tables that keyboard users can scroll (tabindex=0)', () => {
    const html = renderBody('| JavaScript | Python |\n|---|---|\n| `push` | `append` |\n');
    expect(html).toMatch(/<table tabindex="0">/);
    expect(html).toContain('<code>append</code>');
  });
});

describe('the table shortcut (a table construct that refuses lines before no delimiter row)', () => {
  // The same parser as the compiler's, with micromark's own table construct instead.
  function micromarksTables(this: unknown) {
    const data = (
      this as { data: () => { micromarkExtensions?: unknown[]; fromMarkdownExtensions?: unknown[] } }
    ).data();
    (data.micromarkExtensions ??= []).push(gfmTable(), gfmStrikethrough());
    (data.fromMarkdownExtensions ??= []).push(gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown());
  }
  const ours = unified()
    .use(remarkParse)
    .use(remarkFrontmatter, ['yaml'])
    .use(remarkGfmTables)
    .use(remarkMdx)
    .use(remarkDirective);
  const theirs = unified()
    .use(remarkParse)
    .use(remarkFrontmatter, ['yaml'])
    .use(micromarksTables)
    .use(remarkMdx)
    .use(remarkDirective);

  const cases = [
    'a | b\n--- | ---\n1 | 2\nno pipe body row\n\nafter',
    '| a |\n| --- |\n| 1 |',
    'a\n|---|',
    '| a |\n---',
    '| a |\n-',
    'text\n| a | b |\n| - | - |\n| 1 | 2 |',
    '> | a | b |\n> | :- | -: |\n> | 1 | 2 |',
    '- item\n\n  | a | b |\n  | - | - |\n  | 1 | 2 |\n- next',
    '> | a |\n| - |',
    '| a | b |\n| - | - |\n> quote',
    '| `a|b` | c \\| d |\n| - | - |\n| ~~x~~ | y |',
    ':::note\n| a | b |\n| - | - |\n| 1 | 2 |\n:::',
    '<Compare>\n\n| a | b |\n| - | - |\n\n</Compare>',
    '---\ntitle: T\n---\n\n| a |\n| - |',
    '| a |\r\n| - |\r\n| 1 |',
    '| a |\r| - |\r| 1 |',
    'para | with pipe\n\n|---|---|\n| x | y |',
  ];

  it.each([...cases, ...markdownCases])('gives the tree micromark gives: %j', (source) => {
    expect(ours.parse(source)).toEqual(theirs.parse(source));
  });

  it('gives the tree micromark gives for every chapter of the book', () => {
    expect(expectSameTreeForEveryChapter(ours, theirs, 'table')).toBeGreaterThan(50);
  });

  it('finds the lines that can be delimiter rows', () => {
    expect([...delimiterRowsOf('a | b\n--- | :-:\n---\n> |-|\n  | - |\n| a - b |\n')]).toEqual([2, 4, 5]);
  });
});
