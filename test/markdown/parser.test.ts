import remarkDirective from 'remark-directive';
import remarkFrontmatter from 'remark-frontmatter';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { remarkParser } from '../../src/markdown/parse/parser.js';
import { remarkGfmTables } from '../../src/markdown/plugins/gfm-tables.js';
import { expectSameTreeForEveryChapter } from '../helpers/book-chapters.js';
import { markdownCases } from '../helpers/markdown-cases.js';

// The compiler's parser, and the same syntax read by remark-parse (mdast-util-from-markdown's own compiler).
const ours = unified().use(remarkParser).use(remarkFrontmatter, ['yaml']).use(remarkGfmTables).use(remarkMdx).use(remarkDirective);
const theirs = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfmTables).use(remarkMdx).use(remarkDirective);

describe('the parser (micromark events compiled into mdast by compile-events.ts)', () => {
  it.each(markdownCases)('gives the tree remark-parse gives: %j', (source) => {
    expect(ours.parse(source)).toEqual(theirs.parse(source));
  });

  it('marks lists and items as spread the way CommonMark does', () => {
    const spread = (source: string) => {
      const list = ours.parse(source).children[0] as { spread: boolean; children: Array<{ spread: boolean }> };
      return [list.spread, ...list.children.map((item) => item.spread)];
    };
    expect(spread('- a\n- b')).toEqual([false, false, false]);
    expect(spread('- a\n\n- b')).toEqual([true, false, false]);
    expect(spread('- a\n\n  more\n- b')).toEqual([false, true, false]);
  });

  it('gives the tree remark-parse gives for every chapter of the book', () => {
    expect(expectSameTreeForEveryChapter(ours, theirs, 'listItem')).toBeGreaterThan(500);
  });

  it.each([
    '<Compare>\n\nnever closed',
    'text {unclosed expression',
    '<A>\n\n</B>',
    '- item <b>\n\n</b>',
  ])('fails where remark-parse fails, with the same message: %j', (source) => {
    const error = (parse: () => unknown) => {
      try {
        parse();
      } catch (caught) {
        return String((caught as Error).message);
      }
      return 'parsed';
    };
    const theirMessage = error(() => theirs.parse(source));
    expect(theirMessage).not.toBe('parsed');
    expect(error(() => ours.parse(source))).toBe(theirMessage);
  });
});
