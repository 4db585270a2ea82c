import type { Root } from 'mdast';
import { describe, expect, it } from 'vitest';
import { parseWithCodeBodiesHidden } from '../../src/markdown/hide-code-bodies.js';
import { createChapterParser } from '../../src/markdown/parse/parser.js';
import { escapeHeadingIds } from '../../src/markdown/plugins/heading-ids.js';
import { bookChapters } from '../helpers/book-chapters.js';
import { markdownCases } from '../helpers/markdown-cases.js';

// The compiler's parser: what hiding code bodies must not change is the tree it gives.
const parser = createChapterParser();

/** Parses like the compiler does and records every text the parser was given. */
function parseHidden(source: string) {
  const texts: string[] = [];
  const tree = parseWithCodeBodiesHidden(source, (text) => {
    texts.push(text);
    return parser.parse(text);
  });
  return { tree, texts };
}

/**
 * Offsets index into the text that was parsed (it has no code bodies); lines and columns must
 * match. The estree programs of MDX expressions are not mapped (nothing reads them).
 */
const withoutOffsets = (tree: Root) =>
  JSON.parse(
    JSON.stringify(tree, (key, value: unknown) => (key === 'offset' || key === 'estree' ? undefined : value)),
  ) as Root;

const fence = (lang: string, body: string, marker = '```') => `${marker}${lang}\n${body}\n${marker}`;

describe('parsing with code bodies hidden', () => {
  it('gives the tree that parsing the source gives, from a text without the code', () => {
    const source = [
      '## Heading',
      '',
      fence('python', 'def f(x):\n    return {x: "<b>*not* markdown</b>"}\n\n\n# trailing blank lines above'),
      '',
      'Text with `code` and a [link](./other.mdx).',
      '',
      fence('js', 'const a = `template`;\n```\nstill code: the fence above is shorter', '````'),
      '',
      fence('text', 'tilde fence with ``` inside', '~~~'),
      '',
      fence('', ''),
      '',
      ':::note',
      fence('bash', 'echo inside a directive'),
      ':::',
      '',
      '- a list item',
      '',
      '  ```python',
      '  indented = "not hidden, still parsed"',
      '  ```',
      '',
      fence('python', 'x = 1\ny = 2'),
      '',
      '<Compare title="after the code" note={"with an expression"}>',
      '',
      '| a | b |',
      '| - | - |',
      '| `c` | *d* |',
      '',
      '</Compare>',
      '',
      '> quoted [text](./x.mdx) after *three* fences',
    ].join('\n');
    const { tree, texts } = parseHidden(source);
    expect(texts).toHaveLength(1);
    expect(texts[0]).not.toContain('def f');
    expect(texts[0]).not.toContain('echo inside');
    // Every body line is gone: 5 + 3 + 1 + 1 (the empty body) + 1 + 2 of them.
    expect(texts[0].split('\n')).toHaveLength(source.split('\n').length - 13);
    expect(withoutOffsets(tree)).toEqual(withoutOffsets(parser.parse(source)));
  });

  it('parses the source as written when the parser did not see the fence the scan found', () => {
    // The ``` lines sit inside an MDX comment: no code node comes back for them.
    const source = 'Before\n\n{/*\n```python\nprint("in a comment")\n```\n*/}\n\nAfter';
    const { tree, texts } = parseHidden(source);
    expect(texts).toHaveLength(2);
    expect(texts[1]).toBe(source);
    expect(tree).toEqual(parser.parse(source));
  });

  it('reports a syntax error after a code block at its line in the source', () => {
    const source = ['Intro', '', fence('python', 'a = 1\nb = 2\nc = 3'), '', 'Broken <b {oops after the code.'].join(
      '\n',
    );
    const error = (run: () => unknown) => {
      try {
        run();
      } catch (caught) {
        return caught as { line?: number; column?: number };
      }
      throw new Error('no error');
    };
    const hidden = error(() => parseHidden(source));
    const direct = error(() => parser.parse(source));
    expect(hidden.line).toBe(9);
    expect([hidden.line, hidden.column]).toEqual([direct.line, direct.column]);
  });

  it.each(markdownCases)('gives the tree of the source, lines and columns included: %j', (source) => {
    expect(withoutOffsets(parseHidden(source).tree)).toEqual(withoutOffsets(parser.parse(source)));
  });

  it('gives code nodes the body and the fence lines of the source', () => {
    const source = 'Intro\n\n```python\nx = 1\n\ny = 2\n```\n\n~~~\nz\n~~~\n\nAfter';
    const { tree } = parseHidden(source);
    const nodes = tree.children.map((node) => [
      node.type,
      'value' in node ? node.value : undefined,
      node.position!.start.line,
      node.position!.end.line,
    ]);
    expect(nodes).toEqual([
      ['paragraph', undefined, 1, 1],
      ['code', 'x = 1\n\ny = 2', 3, 7],
      ['code', 'z', 9, 11],
      ['paragraph', undefined, 13, 13],
    ]);
  });

  it('leaves unclosed fences and CRLF sources to the parser', () => {
    for (const source of ['Intro\n\n```python\nprint(1)\n', 'Intro\r\n\r\n```python\r\nprint(1)\r\n```\r\n']) {
      const { tree, texts } = parseHidden(source);
      expect(texts).toEqual([source]);
      expect(tree).toEqual(parser.parse(source));
    }
  });

  it('gives every chapter of the book the tree of its source, from one parse without its code', () => {
    let restoredCode = 0;
    for (const chapter of bookChapters()) {
      const source = escapeHeadingIds(chapter.source);
      const { tree, texts } = parseHidden(source);
      expect(texts, chapter.name).toHaveLength(1);
      expect(withoutOffsets(tree), chapter.name).toEqual(withoutOffsets(parser.parse(source)));
      restoredCode += JSON.stringify(tree).split('"type":"code"').length - 1;
    }
    expect(restoredCode).toBeGreaterThan(1000);
  });
});
