/**
 * A chapter as clean Markdown (src/llms/): each of the chapter format's constructs as plain
 * Markdown shows it, links to the other chapters' Markdown, and the compiled page unchanged by it.
 */
import { describe, expect, it } from 'vitest';
import { chapter, FIXTURE_BASE, FIXTURE_SITE_URL } from '../fixtures/fixture-book.js';
import { compileBody } from '../fixtures/render.js';
import { markdownOf, markdownOfChapter } from './markdown-of.js';

const SITE = FIXTURE_SITE_URL + FIXTURE_BASE;
const fence = (lang: string, code: string, meta = '') => `\`\`\`${lang}${meta ? ` ${meta}` : ''}\n${code}\n\`\`\``;

describe("a chapter's Markdown", () => {
  it('starts with the title as "# Title" and the description as a quote', () => {
    const md = markdownOfChapter(chapter('Sets', '## First\n\nText.', { description: 'Python sets, compared.' }));
    expect(md).toBe('# Sets\n\n> Python sets, compared.\n\n## First\n\nText.\n');
    expect(markdownOf('Text.')).toBe('# Test chapter\n\nText.\n');
  });

  it('writes a comparison as two labelled code blocks, each with its output block', () => {
    const md = markdownOf(
      [
        '<Compare>',
        '',
        fence('javascript', 'console.log(1 + 1);'),
        '',
        fence('output', '2'),
        '',
        fence('python', 'print(1 + 1)'),
        '',
        fence('output', '2'),
        '',
        '</Compare>',
      ].join('\n'),
    );
    expect(md).toContain(
      [
        '**JavaScript**',
        fence('javascript', 'console.log(1 + 1);'),
        fence('output', '2'),
        '**Python**',
        fence('python', 'print(1 + 1)'),
        fence('output', '2'),
      ].join('\n\n'),
    );
    expect(md).not.toMatch(/<\/?Compare/);
  });

  it('labels the comparison in the chapter language', () => {
    const md = markdownOfChapter(
      chapter('集合', ['<Compare>', '', fence('js', 'a'), '', fence('py', 'b'), '', '</Compare>'].join('\n')),
      'zh-cn',
    );
    expect(md).toContain(`**JavaScript**\n\n${fence('js', 'a')}\n\n**Python**\n\n${fence('py', 'b')}`);
  });

  it('keeps an output block after its code, and a block title; drops the options only the site reads', () => {
    const md = markdownOf(
      [
        fence('python', 'print(1 / 0)', 'raises="ZeroDivisionError" {1}'),
        '',
        fence('output', 'ZeroDivisionError: division by zero'),
        '',
        fence('python', 'import os', 'title="app.py" norun="reads the disk"'),
      ].join('\n'),
    );
    expect(md).toContain(
      `${fence('python', 'print(1 / 0)')}\n\n${fence('output', 'ZeroDivisionError: division by zero')}\n\n${fence('python', 'import os', 'title="app.py"')}`,
    );
  });

  it('writes each tab under its label', () => {
    const md = markdownOf(
      [
        '<Tabs>',
        '<TabItem value="mac" label="macOS">',
        '',
        fence('bash', 'brew install python3'),
        '',
        '</TabItem>',
        '<TabItem value="linux">',
        '',
        'Use apt.',
        '',
        '</TabItem>',
        '</Tabs>',
      ].join('\n'),
    );
    expect(md).toContain(`**macOS**\n\n${fence('bash', 'brew install python3')}\n\n**linux**\n\nUse apt.`);
  });

  it('writes an admonition as a quote led by its kind and its title as written', () => {
    const md = markdownOf(
      ':::warning[`True` and `1` are *one* key]\nKeys that compare equal share a slot.\n:::\n\n:::tip\nUse `get`.\n:::',
    );
    expect(md).toContain('> **Warning: `True` and `1` are *one* key**\n>\n> Keys that compare equal share a slot.');
    expect(md).toContain('> **Tip**\n>\n> Use `get`.');
    const zh = markdownOfChapter(chapter('字典', ':::note[标题]\n正文。\n:::'), 'zh-cn');
    expect(zh).toContain('> **备注：标题**');
  });

  it("writes an exercise's starter code and tests labelled, its hints and answer as sections, and never a trap", () => {
    const md = markdownOf(
      [
        '## Exercise',
        '',
        'Write `double`.',
        '',
        fence('python', 'def double(x):\n    return x', 'exercise="starter"'),
        '',
        fence('python', 'def test_double():\n    assert double(2) == 4', 'exercise="tests"'),
        '',
        fence('python', 'def double(x):\n    return x + 2', 'exercise="trap"'),
        '',
        '<Hint>',
        '',
        'Multiply.',
        '',
        '</Hint>',
        '',
        '<Hint summary="Another hint">',
        '',
        'By two.',
        '',
        '</Hint>',
        '',
        '<Answer>',
        '',
        fence('python', 'def double(x):\n    return x * 2', 'exercise="answer"'),
        '',
        'Twice x.',
        '',
        '</Answer>',
      ].join('\n'),
    );
    expect(md).toContain(
      [
        '## Exercise',
        'Write `double`.',
        '**Starter code**',
        fence('python', 'def double(x):\n    return x'),
        '**Tests**',
        fence('python', 'def test_double():\n    assert double(2) == 4'),
        '### Hint',
        'Multiply.',
        '### Another hint',
        'By two.',
        '### Answer',
        fence('python', 'def double(x):\n    return x * 2'),
        'Twice x.',
      ].join('\n\n'),
    );
    expect(md).not.toContain('x + 2');
    expect(md).not.toContain('trap');
  });

  it('puts a hint one level below the section it is in, and labels the exercise in the chapter language', () => {
    const md = markdownOfChapter(
      chapter(
        '练习',
        [
          '## 练习',
          '',
          '### 第一步',
          '',
          fence('python', 'x = 1', 'exercise="starter"'),
          '',
          fence('python', 'def test_x():\n    assert x == 2', 'exercise="tests"'),
          '',
          '<Hint>\n\n提示内容。\n\n</Hint>',
          '',
          '<Answer>\n\n' + fence('python', 'x = 2', 'exercise="answer"') + '\n\n</Answer>',
        ].join('\n'),
      ),
      'zh-cn',
    );
    expect(md).toContain('**起始代码**');
    expect(md).toContain('**测试**');
    expect(md).toContain('#### 提示\n\n提示内容。');
    expect(md).toContain('#### 答案');
  });

  it("links chapters to their Markdown (anchors kept), the home page to llms.txt, the rest to the site's own URLs, all absolute", () => {
    const md = markdownOf(
      [
        '## Here',
        '',
        '[sets](./set.mdx), [a section](./set.mdx#frozenset), [this one](#here), [home](/), [search](/search?q=dict),',
        '[Python](https://www.python.org/), [data](/files/data.csv), ![logo](/img/logo.svg), [near](./diagram.png).',
      ].join('\n'),
    );
    expect(md).toContain(`[sets](${SITE}set.md)`);
    expect(md).toContain(`[a section](${SITE}set.md#frozenset)`);
    expect(md).toContain(`[this one](${SITE}test-chapter.md#here)`);
    expect(md).toContain(`[home](${SITE}llms.txt)`);
    expect(md).toContain(`[search](${SITE}search/?q=dict)`);
    expect(md).toContain('[Python](https://www.python.org/)');
    expect(md).toContain(`[data](${SITE}files/data.csv)`);
    expect(md).toContain(`![logo](${SITE}img/logo.svg)`);
    expect(md).toContain(`[near](${SITE}test-chapter/diagram.png)`);
  });

  it("links a translation's chapters to the translation's Markdown", () => {
    const md = markdownOfChapter(chapter('集合', '[字典](./dictionary.mdx#get)，[首页](/)'), 'zh-cn');
    expect(md).toContain(`[字典](${SITE}zh-cn/dictionary.md#get)`);
    expect(md).toContain(`[首页](${SITE}zh-cn/llms.txt)`);
  });

  it('keeps GFM tables and strikethrough, and escapes what Markdown would read otherwise', () => {
    const md = markdownOf(
      '| JavaScript | Python |\n| --- | --- |\n| `a ?? b` | `a or b` |\n\n~~old~~, 2 \\< 3, \\<div>, \\{x\\} and \\*not bold\\*.',
    );
    expect(md).toContain('| JavaScript | Python |\n| - | - |\n| `a ?? b` | `a or b` |');
    expect(md).toContain('~~old~~, 2 < 3, \\<div>, {x} and \\*not bold\\*.');
  });

  it('leaves the page as it is', () => {
    const body =
      ':::tip[A `title`]\nText [set](./set.mdx).\n:::\n\n<Compare>\n\n```js\na\n```\n\n```py\nb\n```\n\n</Compare>';
    const page = compileBody(body);
    expect(page.markdown).toBeUndefined();
    const html = JSON.stringify(page.hast);
    const withMarkdown = markdownOf(body);
    expect(withMarkdown).toContain('set.md');
    expect(JSON.stringify(compileBody(body).hast)).toBe(html);
  });
});
