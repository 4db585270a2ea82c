import { describe, expect, it } from 'vitest';
import { escapeHeadingIds } from '../../src/markdown/plugins/heading-ids.js';
import { BookError, formatError } from '../../src/core/errors.js';
import { compileBody, renderBody, thrown } from '../fixtures/render.js';

const ids = (body: string) => compileBody(body).headings.map((h) => h.id);

describe('heading ids', () => {
  it('are GitHub-style slugs of the heading text', () => {
    expect(ids('## Hello, World!\n\n### The `print()` function\n\n## Lists and tuples (part 2)')).toEqual([
      'hello-world',
      'the-print-function',
      'lists-and-tuples-part-2',
    ]);
  });

  it('keep Chinese characters', () => {
    expect(ids('## 可变默认参数\n\n## Python 与 JavaScript 的区别')).toEqual([
      '可变默认参数',
      'python-与-javascript-的区别',
    ]);
  });

  it('are unique within a page', () => {
    expect(ids('## Example\n\n## Example\n\n### Example\n\n## 示例\n\n## 示例')).toEqual([
      'example',
      'example-1',
      'example-2',
      '示例',
      '示例-1',
    ]);
  });

  it('a custom id {#id} replaces the slug and is removed from the text', () => {
    const compiled = compileBody('## 可变默认参数 {#mutable-default-arguments}\n\nText.');
    expect(compiled.headings).toEqual([{ depth: 2, text: '可变默认参数', id: 'mutable-default-arguments', line: 5 }]);
    const html = renderBody('## 可变默认参数 {#mutable-default-arguments}');
    expect(html).toContain(
      '<h2 id="mutable-default-arguments" class="anchor">可变默认参数<a class="hash-link" href="#mutable-default-arguments" aria-label="Direct link to 可变默认参数"',
    );
    expect(html).not.toContain('{#');
  });

  it('a generated slug never collides with a custom id', () => {
    expect(ids('## Setup {#custom}\n\n## Custom\n\n## custom')).toEqual(['custom', 'custom-1', 'custom-2']);
  });

  it('a custom id used twice is an error with the position and the line as written', () => {
    const error = thrown(() => compileBody('## One {#same}\n\n## Two {#same}'));
    expect(error).toBeInstanceOf(BookError);
    expect(error.message).toBe('heading id "same" is used twice in this chapter (first by "One" on line 5)');
    expect((error as BookError).position).toMatchObject({ line: 7, column: 1 });
    // The excerpt shows what the author wrote, not the escaped text the parser saw.
    expect((error as BookError).sourceLine).toBe('## Two {#same}');
    expect(formatError(error)).toContain('7 | ## Two {#same}');
  });

  it('a custom id equal to an earlier generated one names that heading', () => {
    expect(thrown(() => compileBody('## Setup\n\n## Installing {#setup}')).message).toBe(
      'heading id "setup" is used twice in this chapter (first by "Setup" on line 5)',
    );
  });

  it('{#id} inside a code fence is left alone', () => {
    const body =
      '```text\n## Not a heading {#keep-me}\n```\n\n````text\n```\n## Nested {#also-kept}\n```\n````\n\n## Real {#real}';
    const compiled = compileBody(body);
    expect(compiled.headings.map((h) => h.id)).toEqual(['real']);
    expect(compiled.examples[0].code).toBe('## Not a heading {#keep-me}');
    expect(renderBody(body)).toContain('## Not a heading {#keep-me}');
  });

  it('the escape keeps line numbers and only touches heading lines outside fences', () => {
    const source = 'Text {#not-a-heading}\n## H {#id}\n```\n## C {#code}\n```';
    const escaped = escapeHeadingIds(source);
    expect(escaped.split('\n')).toHaveLength(source.split('\n').length);
    expect(escaped).toBe('Text {#not-a-heading}\n## H \\{#id\\}\n```\n## C {#code}\n```');
  });

  it('headings record their depth and line for the table of contents', () => {
    expect(compileBody('## A\n\n### B\n\n#### C').headings).toEqual([
      { depth: 2, text: 'A', id: 'a', line: 5 },
      { depth: 3, text: 'B', id: 'b', line: 7 },
      { depth: 4, text: 'C', id: 'c', line: 9 },
    ]);
  });
});
