import type { Root, RootContent } from 'mdast';
import { describe, expect, it } from 'vitest';
import { compileChapter } from '../../src/markdown/compile.js';
import { createChapterParser } from '../../src/markdown/parse/parser.js';
import { BookError } from '../../src/core/errors.js';
import { bookChapters } from '../helpers/book-chapters.js';
import { escapeHeadingIds } from '../../src/markdown/plugins/heading-ids.js';

const parser = createChapterParser();
const parse = (source: string): Root => parser.parse(source);

/** The node types of a tree, depth first, without the root. */
function typesOf(node: Root | RootContent): string[] {
  const own = node.type === 'root' ? [] : [node.type];
  return 'children' in node ? [...own, ...node.children.flatMap((child) => typesOf(child))] : own;
}

describe("the chapter parser (remark-parse with the chapter format's syntax plugins)", () => {
  it('reads YAML front matter as a yaml node, and only at the very start', () => {
    const tree = parse('---\ntitle: T\n---\n\nText');
    expect(tree.children[0]).toMatchObject({
      type: 'yaml',
      value: 'title: T',
      position: { start: { line: 1, column: 1 }, end: { line: 3, column: 4 } },
    });
    expect(typesOf(parse('Text\n\n---\ntitle: T\n---'))).not.toContain('yaml');
  });

  it('reads GFM tables with their alignment, and ~~strikethrough~~', () => {
    const [table] = parse('| a | b | c |\n| :- | :-: | -: |\n| ~~x~~ | `a\\|b` | 1 |').children;
    expect(table).toMatchObject({ type: 'table', align: ['left', 'center', 'right'] });
    expect(typesOf(table)).toEqual([
      'table',
      'tableRow',
      'tableCell',
      'text',
      'tableCell',
      'text',
      'tableCell',
      'text',
      'tableRow',
      'tableCell',
      'delete',
      'text',
      'tableCell',
      'inlineCode',
      'tableCell',
      'text',
    ]);
  });

  it('leaves out the rest of GFM: no literal autolinks, task lists or footnotes', () => {
    expect(typesOf(parse('See www.example.com and https://example.com.'))).toEqual(['paragraph', 'text']);
    const list = parse('- [x] done\n- [ ] open').children[0] as { children: Array<{ checked?: boolean | null }> };
    expect(list.children.map((item) => item.checked)).toEqual([null, null]);
    expect(typesOf(parse('Text[^1].\n\n[^1]: Note.'))).not.toContain('footnoteReference');
  });

  it('reads MDX: JSX elements with their attributes, expressions and ESM', () => {
    const tree = parse('import {A} from "./a.js"\n\n<Compare left="JavaScript">\n\n*text* {1 + 2}\n\n</Compare>');
    expect(typesOf(tree)).toEqual([
      'mdxjsEsm',
      'mdxJsxFlowElement',
      'paragraph',
      'emphasis',
      'text',
      'text',
      'mdxTextExpression',
    ]);
    expect((tree.children[1] as { attributes: unknown[] }).attributes).toMatchObject([
      { type: 'mdxJsxAttribute', name: 'left', value: 'JavaScript' },
    ]);
  });

  it('reads directives: containers with a label and attributes, leaf and text directives', () => {
    const [container] = parse(
      ':::tip[A *label*]{#id .class key="value"}\nBody with :text[x] and\n::leaf{y=z}\n:::',
    ).children;
    expect(container).toMatchObject({
      type: 'containerDirective',
      name: 'tip',
      attributes: { id: 'id', class: 'class', key: 'value' },
    });
    expect(typesOf(container)).toContain('textDirective');
    expect(typesOf(container)).toContain('leafDirective');
  });

  it('marks lists and items as spread the way CommonMark does', () => {
    const spread = (source: string) => {
      const list = parse(source).children[0] as { spread: boolean; children: Array<{ spread: boolean }> };
      return [list.spread, ...list.children.map((item) => item.spread)];
    };
    expect(spread('- a\n- b')).toEqual([false, false, false]);
    expect(spread('- a\n\n- b')).toEqual([true, false, false]);
    expect(spread('- a\n\n  more\n- b')).toEqual([false, true, false]);
  });

  it('parses every chapter of the book', () => {
    let nodes = 0;
    for (const chapter of bookChapters()) nodes += typesOf(parse(escapeHeadingIds(chapter.source))).length;
    expect(nodes).toBeGreaterThan(20_000);
  });
});

describe('syntax errors in a chapter', () => {
  const file = 'book/en/broken.mdx';
  const located = (body: string) => {
    try {
      compileChapter(`---\ntitle: Broken\n---\n\n${body}`, file, {
        slug: 'broken',
        basePath: '/',
        localePaths: [],
        routeFor: (slug) => `/${slug}/`,
      });
    } catch (error) {
      if (error instanceof BookError) return { message: error.message, ...error.position };
      throw error;
    }
    throw new Error('compiled without an error');
  };

  it.each([
    // At the end of the file: mdast-util-mdx-jsx names the opening tag's place only in its message.
    ['an unclosed JSX element', '<Compare>\n\nnever closed', 5, 1],
    ['an unclosed expression', 'Intro\n\ntext {unclosed expression', 7, 26],
    ['a closing tag that does not match', '<A>\n\n</B>', 7, 1],
    // The paragraph that holds the opening tag ends before the closing one.
    ['a closing tag in another container', '- item <b>\n\n</b>', 5, 3],
  ])('%s is reported with the file, line and column', (_name, body, line, column) => {
    const error = located(body);
    expect(error).toMatchObject({ file, line, column });
    expect(error.message).toMatch(/^MDX syntax error: /);
  });

  it('after a code block, at its line in the source (code bodies are hidden while parsing)', () => {
    const code = '```python\na = 1\nb = 2\n```\n\n';
    expect(located(`${code}Broken <b {oops after the code.`)).toMatchObject({ file, line: 10, column: 32 });
    expect(located(`${code}<Compare>\n\nnever closed`)).toMatchObject({ file, line: 10, column: 1 });
  });
});
