import type { Root } from 'mdast';
import remarkDirective from 'remark-directive';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { parseWithCodeBodiesHidden } from '../../src/markdown/hide-code-bodies.js';

const parser = unified().use(remarkParse).use(remarkMdx).use(remarkDirective);

/** Parses like the compiler does and records every text the parser was given. */
function parseHidden(source: string) {
  const texts: string[] = [];
  const tree = parseWithCodeBodiesHidden(source, (text) => {
    texts.push(text);
    return parser.parse(text) as Root;
  });
  return { tree, texts };
}

/** Offsets index into the text that was parsed (emptied lines are shorter); lines and columns must match. */
const withoutOffsets = (tree: unknown) => JSON.parse(JSON.stringify(tree, (key, value) => (key === 'offset' ? undefined : value)));

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
    ].join('\n');
    const { tree, texts } = parseHidden(source);
    expect(texts).toHaveLength(1);
    expect(texts[0]).not.toContain('def f');
    expect(texts[0]).not.toContain('echo inside');
    expect(texts[0].split('\n')).toHaveLength(source.split('\n').length);
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

  it('leaves unclosed fences and CRLF sources to the parser', () => {
    for (const source of ['Intro\n\n```python\nprint(1)\n', 'Intro\r\n\r\n```python\r\nprint(1)\r\n```\r\n']) {
      const { tree, texts } = parseHidden(source);
      expect(texts).toEqual([source]);
      expect(tree).toEqual(parser.parse(source));
    }
  });
});
