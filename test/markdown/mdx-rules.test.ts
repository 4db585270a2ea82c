import { describe, expect, it } from 'vitest';
import { BookError, formatError } from '../../src/core/errors.js';
import { compileBody, compileIn, renderBody, TEST_FILE, thrown } from '../fixtures/render.js';
import { chapter } from '../fixtures/fixture-book.js';

/** Front matter takes lines 1-3 and a blank line follows: the body starts on line 5. */
const BODY_LINE = 5;

function located(body: string): BookError {
  const error = thrown(() => compileBody(body));
  expect(error).toBeInstanceOf(BookError);
  return error;
}

describe('front matter', () => {
  it('is read into the compiled chapter and not rendered', () => {
    const compiled = compileIn(
      'en',
      chapter('Dictionaries', 'Text.', {
        description: 'About dicts',
        keywords: ['dict', 'map'],
        sidebar_label: 'Dicts',
        unlisted: true,
      }),
    );
    expect(compiled.frontMatter).toEqual({
      title: 'Dictionaries',
      description: 'About dicts',
      keywords: ['dict', 'map'],
      sidebar_label: 'Dicts',
      unlisted: true,
    });
    expect(JSON.stringify(compiled.hast)).not.toContain('About dicts');
  });

  it('is required, with a title', () => {
    expect(thrown(() => compileIn('en', 'No front matter')).message).toMatch(/^missing front matter/);
    expect(thrown(() => compileIn('en', '---\ndescription: x\n---\n\nText')).message).toBe(
      'front matter needs a "title" string',
    );
  });

  it('rejects unknown fields and wrong types', () => {
    expect(thrown(() => compileIn('en', '---\ntitle: A\nslug: b\n---\n')).message).toContain(
      'unknown front matter field "slug"',
    );
    expect(thrown(() => compileIn('en', '---\ntitle: A\nunlisted: "yes"\n---\n')).message).toBe(
      'front matter "unlisted" must be true or false',
    );
    expect(thrown(() => compileIn('en', '---\ntitle: A\nkeywords: dict\n---\n')).message).toBe(
      'front matter "keywords" must be a list of strings',
    );
  });

  it('names the line and column of a YAML mistake and of an unknown field', () => {
    const duplicate = thrown(() => compileIn('en', '---\ntitle: A\ntitle: B\n---\n')) as BookError;
    expect(duplicate.message).toBe('invalid front matter: duplicated mapping key');
    expect(duplicate.position).toMatchObject({ line: 3, column: 1 });
    const unclosed = thrown(() => compileIn('en', '---\ntitle: A\nkeywords: [a, b\n---\n')) as BookError;
    expect(unclosed.message).toMatch(/^invalid front matter: .*flow collection/);
    expect(unclosed.position?.line).toBeGreaterThanOrEqual(3);
    const unknown = thrown(() => compileIn('en', '---\ntitle: A\ndescription: B\n"slug": b\n---\n')) as BookError;
    expect(unknown.message).toContain('unknown front matter field "slug"');
    expect(unknown.position).toMatchObject({ line: 4, column: 1 });
  });

  it('rejects a "# " heading: the title comes from the front matter', () => {
    const error = located('# Title again');
    expect(error.position).toEqual({ file: TEST_FILE, line: BODY_LINE, column: 1 });
  });
});

describe('MDX comments', () => {
  it('are dropped, inline and on their own line', () => {
    const html = renderBody(
      'Before {/* inline note */} after.\n\n{/* a block note\n   over two lines */}\n\nNext paragraph.',
    );
    expect(html).not.toContain('inline note');
    expect(html).not.toContain('block note');
    expect(html).toContain('Before');
    expect(html).toContain('after.');
    expect(html).toContain('<p>Next paragraph.</p>');
  });
});

describe('JavaScript in chapters is an error with file:line:column', () => {
  it('an expression', () => {
    const error = located('Intro line.\n\nThe sum is {1 + 1} here.');
    expect(error.position).toEqual({ file: TEST_FILE, line: BODY_LINE + 2, column: 12 });
    expect(error.message).toContain('JavaScript expressions are not allowed in chapters: {1 + 1}');
    expect(formatError(error)).toContain(`${TEST_FILE}:${BODY_LINE + 2}:12: JavaScript expressions`);
    // The excerpt shows the line and a caret under the expression.
    expect(formatError(error)).toContain('The sum is {1 + 1} here.\n');
  });

  it('an import and an export', () => {
    for (const statement of ['import x from "y"', 'export const answer = 42']) {
      const error = located(statement);
      expect(error.message).toBe('import and export statements are not allowed in chapters');
      expect(error.position).toEqual({ file: TEST_FILE, line: BODY_LINE, column: 1 });
    }
  });

  it('an unknown component', () => {
    const error = located('Text.\n\n<Counter start="1" />');
    expect(error.message).toMatch(
      /^unknown component <Counter>: chapters may use <Compare>, <Tabs>, <TabItem>, <Hint>, <Answer>/,
    );
    expect(error.position).toEqual({ file: TEST_FILE, line: BODY_LINE + 2, column: 1 });
  });

  it('an unknown attribute, an expression attribute and a fragment', () => {
    expect(located('<Tabs group="x">\n\nx\n\n</Tabs>').message).toBe(
      '<Tabs> has no attribute "group" (it accepts defaultValue, groupId)',
    );
    expect(located('x <Answer summary={"s"}>y</Answer>').message).toBe(
      'attribute "summary" of <Answer> must be a plain string in quotes',
    );
    expect(located('<>x</>').message).toMatch(/fragments/);
  });

  it('an unclosed brace is a syntax error with its position and a hint', () => {
    const error = located('a { b');
    expect(error.message).toMatch(/^MDX syntax error/);
    expect(error.position).toMatchObject({ file: TEST_FILE, line: BODY_LINE });
  });

  it('escaped braces and code spans are text, not expressions', () => {
    const html = renderBody('A dict \\{"a": 1\\} and `{"b": 2}`.');
    expect(html).toContain('A dict {&quot;a&quot;: 1}');
    expect(html).toContain('<code>{&quot;b&quot;: 2}</code>');
  });
});

describe('admonitions', () => {
  it.each(['note', 'tip', 'info', 'warning', 'danger'] as const)(':::%s renders with its default title', (kind) => {
    const html = renderBody(`:::${kind}\nBody of the ${kind}.\n:::`);
    expect(html).toContain(`<div class="admonition admonition-${kind}" role="note">`);
    expect(html).toContain(`<p>Body of the ${kind}.</p>`);
    const defaultTitle = { note: 'Note', tip: 'Tip', info: 'Info', warning: 'Warning', danger: 'Danger' }[kind];
    expect(html).toMatch(new RegExp(`class="admonition-heading">.*</span>${defaultTitle}</p>`));
  });

  it('takes an optional title in brackets', () => {
    const html = renderBody(":::tip[Coming from JavaScript]\nPython's `None` is `null`.\n:::");
    expect(html).toMatch(/<\/span>Coming from JavaScript<\/p>/);
    expect(html).not.toContain('[Coming from JavaScript]');
  });

  it("uses the locale's default titles", () => {
    expect(renderBody(':::warning\nx\n:::', 'zh-cn')).toMatch(/<\/span>警告<\/p>/);
  });

  it('an unknown kind is an error naming the allowed ones', () => {
    const error = located(':::caution\nx\n:::');
    expect(error.message).toBe(
      'unknown admonition ":::caution": use one of :::note, :::tip, :::info, :::warning, :::danger',
    );
    expect(error.position?.line).toBe(BODY_LINE);
  });

  it('times and colons in prose stay text', () => {
    const html = renderBody('Meet at 10:30 and read a:b.\n\n::leaf\n');
    expect(html).toContain('Meet at 10:30 and read a:b.');
    expect(html).toContain('::leaf');
  });
});

describe('components', () => {
  const tabs =
    '<Tabs defaultValue="windows">\n<TabItem value="macos" label="macOS">\n\nUse brew.\n\n</TabItem>\n<TabItem value="windows" label="Windows">\n\nUse the installer.\n\n</TabItem>\n</Tabs>';

  it('Tabs renders a tab list with the default tab selected and every panel in the HTML', () => {
    const html = renderBody(tabs);
    expect(html).toContain('role="tablist"');
    expect(html).toMatch(/role="tab"[^>]*aria-selected="false"[^>]*data-tab="macos">macOS<\/button>/);
    expect(html).toMatch(/role="tab"[^>]*aria-selected="true"[^>]*data-tab="windows">Windows<\/button>/);
    expect(html).toMatch(
      /role="tabpanel"[^>]*hidden=""[^>]*data-tab-panel="macos" data-tab-label="macOS"><p>Use brew.<\/p>/,
    );
    expect(html).toMatch(
      /role="tabpanel"[^>]*data-tab-panel="windows" data-tab-label="Windows"><p>Use the installer.<\/p>/,
    );
    expect(html).not.toMatch(/hidden=""[^>]*data-tab-panel="windows"/);
  });

  it('Tabs without defaultValue opens the first tab', () => {
    const html = renderBody(tabs.replace(' defaultValue="windows"', ''));
    expect(html).toMatch(/aria-selected="true"[^>]*data-tab="macos"/);
  });

  it('Compare labels its two columns per locale', () => {
    const body = '<Compare>\n\n```javascript\nconsole.log(1);\n```\n\n```python\nprint(1)\n```\n\n</Compare>';
    const html = renderBody(body);
    // Each column carries its longest line's columns (see Compare.tsx).
    expect(html).toMatch(
      /<div class="compare"><div class="compare-grid"><div class="compare-column" style="--code-columns:15"><div class="compare-label">JavaScript<\/div><div class="code-block" data-lang="javascript">/,
    );
    expect(html).toMatch(
      /<div class="compare-column" style="--code-columns:8"><div class="compare-label">Python<\/div><div class="code-block" data-lang="python">/,
    );
  });

  it('Answer is a closed disclosure with a translated summary', () => {
    expect(renderBody('<Answer>\n\nThe answer is 42.\n\n</Answer>')).toBe(
      '<details class="answer"><summary>Show the answer</summary><div class="answer-content"><p>The answer is 42.</p></div></details>',
    );
    expect(renderBody('<Answer>\n\nx\n\n</Answer>', 'zh-cn')).toContain('<summary>查看答案</summary>');
    expect(renderBody('<Answer summary="Hint">\n\nx\n\n</Answer>')).toContain('<summary>Hint</summary>');
  });

  it('content that a component would drop is an error instead of silently lost', () => {
    expect(located('<Tabs>\n\nLoose text.\n\n<TabItem value="a">\n\nA\n\n</TabItem>\n</Tabs>').message).toBe(
      '<Tabs> may only contain <TabItem> elements; put text inside a <TabItem>',
    );
    expect(located('<Tabs>\n<TabItem label="A">\n\nA\n\n</TabItem>\n</Tabs>').message).toBe(
      '<TabItem> needs a value="..." attribute',
    );
    expect(
      located('<Tabs>\n<TabItem value="a">\n\nA\n\n</TabItem>\n<TabItem value="a">\n\nB\n\n</TabItem>\n</Tabs>')
        .message,
    ).toBe('<Tabs> has two <TabItem value="a">');
    expect(located('<Tabs>\n</Tabs>').message).toBe('<Tabs> needs at least one <TabItem>');
    const orphan = located('Text.\n\n<TabItem value="a">\n\nA\n\n</TabItem>');
    expect(orphan.message).toBe('<TabItem> must be directly inside <Tabs>');
    expect(orphan.position).toMatchObject({ line: BODY_LINE + 2, column: 1 });
    const three = '<Compare>\n\n```javascript\na\n```\n\n```python\nb\n```\n\n```python\nc\n```\n\n</Compare>';
    expect(located(three).message).toMatch(/^<Compare> holds exactly two code blocks/);
    expect(located('<Compare>\n\nJust prose.\n\n</Compare>').message).toMatch(
      /^<Compare> holds exactly two code blocks/,
    );
  });

  it('Compare accepts an output block after each of its two code blocks', () => {
    const body =
      '<Compare>\n\n```javascript\nconsole.log(1);\n```\n\n```output\n1\n```\n\n```python\nprint(1)\n```\n\n```output\n1\n```\n\n</Compare>';
    expect(renderBody(body).match(/class="code-output"/g)).toHaveLength(2);
  });

  it('a component alone on a line is not wrapped in a paragraph', () => {
    expect(renderBody('<Answer>x</Answer>')).not.toContain('<p><details');
  });
});

describe('raw HTML and script', () => {
  it('a <script> element in a chapter is rejected, never rendered', () => {
    expect(located('<script>alert(1)</script>').message).toMatch(/unknown component <script>/);
  });

  it('a javascript: link is refused instead of becoming a link at all', () => {
    expect(() => compileBody('[x](javascript:alert(1))')).toThrow(/URL scheme "javascript:" is not allowed/);
  });
});
