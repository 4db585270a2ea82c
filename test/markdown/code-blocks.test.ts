import { exampleKey } from '../../src/runner/build/browser-check-file.js';
import { describe, expect, it } from 'vitest';
import { parseCodeMeta } from '../../src/markdown/plugins/code-blocks.js';
import { BookError } from '../../src/core/errors.js';
import { compileBody, renderBody, thrown } from '../fixtures/render.js';

const fence = (lang: string, code: string, meta = '') => `\`\`\`${lang}${meta ? ` ${meta}` : ''}\n${code}\n\`\`\``;

describe('code blocks are highlighted at build time', () => {
  const samples: Array<[string, string, RegExp]> = [
    ['python', 'def greet(name):\n    return f"hi {name}"', /<span class="tok-keyword">def<\/span>/],
    ['javascript', 'const answer = 42;', /<span class="tok-keyword">const<\/span>/],
    ['typescript', 'let n: number = 1;', /<span class="tok-builtin">number<\/span>/],
    ['bash', 'echo "hi" # greet', /<span class="tok-comment"># greet<\/span>/],
    ['json', '{"name": "pybook"}', /<span class="tok-attr">&quot;name&quot;<\/span>/],
    ['toml', '[tool.poetry]\nname = "demo"', /<span class="tok-section">\[tool.poetry\]<\/span>/],
  ];

  it.each(samples)('%s', (lang, code, token) => {
    const html = renderBody(fence(lang, code));
    expect(html).toContain(`<div class="code-block" data-lang="${lang}">`);
    expect(html).toContain(`<code class="language-${lang}">`);
    expect(html).toMatch(token);
  });

  it('text is shown as it is, without token spans', () => {
    const html = renderBody(fence('text', 'def x(): <b>not</b>'));
    expect(html).toContain(
      '<code class="language-text"><span class="code-line">def x(): &lt;b&gt;not&lt;/b&gt;\n</span></code>',
    );
    expect(html).not.toContain('tok-');
  });

  it('short aliases map to the canonical language', () => {
    expect(renderBody(fence('py', 'x = 1'))).toContain('data-lang="python"');
    expect(renderBody(fence('js', 'x'))).toContain('data-lang="javascript"');
    expect(renderBody(fence('ts', 'x'))).toContain('data-lang="typescript"');
    expect(renderBody(fence('sh', 'ls'))).toContain('data-lang="bash"');
  });

  it('a block without a language is text', () => {
    expect(renderBody('```\nplain\n```')).toContain('data-lang="text"');
  });

  it('an unsupported language is an error naming the supported ones', () => {
    const error = thrown(() => compileBody(fence('rust', 'fn main() {}')));
    expect(error).toBeInstanceOf(BookError);
    expect(error.message).toMatch(/^unsupported code language "rust": use one of python, py, javascript/);
    expect((error as BookError).position).toMatchObject({ line: 5, column: 1 });
  });

  it('a token spanning lines keeps its colour on each line', () => {
    const html = renderBody(fence('python', '"""first\nsecond"""'));
    expect(html).toContain('<span class="code-line"><span class="tok-string">&quot;&quot;&quot;first</span>\n</span>');
    expect(html).toContain('<span class="code-line"><span class="tok-string">second&quot;&quot;&quot;</span>\n</span>');
  });
});

describe('code block options', () => {
  it('title="file.py" shows a title bar', () => {
    expect(renderBody(fence('python', 'x = 1', 'title="greet.py"'))).toContain(
      '<div class="code-block-title">greet.py</div>',
    );
  });

  it('{1,3-5} highlights exactly those lines', () => {
    const html = renderBody(
      fence('python', ['a = 1', 'b = 2', 'c = 3', 'd = 4', 'e = 5', 'f = 6'].join('\n'), 'title="x.py" {1,3-5}'),
    );
    const lines = [...html.matchAll(/<span class="(code-line[^"]*)">/g)].map((m) => m[1]);
    expect(lines).toEqual([
      'code-line code-line-highlighted',
      'code-line',
      'code-line code-line-highlighted',
      'code-line code-line-highlighted',
      'code-line code-line-highlighted',
      'code-line',
    ]);
  });

  it('renders the copy and word-wrap buttons with translated labels', () => {
    const en = renderBody(fence('python', 'x = 1'));
    expect(en).toMatch(
      /<button type="button" class="code-button" data-code-action="wrap" aria-label="Toggle word wrap"/,
    );
    expect(en).toMatch(
      /<button type="button" class="code-button" data-code-action="copy" aria-label="Copy code to clipboard" title="Copy" data-copied-label="Copied"><span class="code-button-label">Copy<\/span><\/button>/,
    );
    const zh = renderBody(fence('python', 'x = 1'), 'zh-cn');
    expect(zh).toContain('data-code-action="copy" aria-label="复制代码到剪贴板"');
  });

  it('parseCodeMeta reads every option and rejects what it does not know', () => {
    expect(parseCodeMeta('title="a.py" {1,3-4} norun="needs the network"')).toEqual({
      title: 'a.py',
      highlight: new Set([1, 3, 4]),
      norun: 'needs the network',
    });
    expect(parseCodeMeta('raises="ValueError"')).toEqual({ highlight: new Set(), raises: 'ValueError' });
    expect(() => parseCodeMeta('colour="red"')).toThrow('unknown code block option "colour"');
    expect(() => parseCodeMeta('{5-2}')).toThrow('line range "5-2" is not valid');
    expect(() => parseCodeMeta('norun=""')).toThrow('norun needs a reason');
    expect(() => parseCodeMeta('title=a.py')).toThrow(/cannot read the code block options/);
  });

  it('a bad option is an error at the block', () => {
    const error = thrown(() => compileBody(`Intro.\n\n${fence('python', 'x', 'colour="red"')}`));
    expect((error as BookError).position).toMatchObject({ line: 7, column: 1 });
  });
});

describe('```output blocks', () => {
  it('attach to the block before them', () => {
    const body = `${fence('python', 'print("hi")')}\n\n${fence('output', 'hi')}\n\nAfter.`;
    const html = renderBody(body);
    expect(html).toContain(
      '<div class="code-output"><div class="code-output-label">Output</div><pre class="code-output-pre" tabindex="0"><code>hi</code></pre></div></div>',
    );
    // One code block, with the output inside it.
    expect(html.match(/class="code-block"/g)).toHaveLength(1);
    // An example the page may offer to run carries its browser-check key, made at compile time.
    expect(compileBody(body).examples).toEqual([
      {
        lang: 'python',
        code: 'print("hi")',
        line: 5,
        output: 'hi',
        key: exampleKey({ lang: 'python', code: 'print("hi")', output: 'hi' }),
      },
    ]);
  });

  it('an output block on its own is an error', () => {
    const error = thrown(() => compileBody(`Text.\n\n${fence('output', 'hi')}`));
    expect(error.message).toBe('an ```output block must directly follow the code block whose output it shows');
    expect((error as BookError).position?.line).toBe(7);
  });

  it('examples record norun, raises and title for the checker', () => {
    const examples = compileBody(
      [
        fence('python', 'raise ValueError("bad")', 'raises="ValueError"'),
        fence('javascript', 'await fetch("https://example.com")', 'norun="needs the network"'),
        fence('python', 'x = 1', 'title="x.py"'),
      ].join('\n\n'),
    ).examples;
    expect(examples).toEqual([
      {
        lang: 'python',
        code: 'raise ValueError("bad")',
        line: 5,
        raises: 'ValueError',
        key: exampleKey({ lang: 'python', code: 'raise ValueError("bad")', raises: 'ValueError' }),
      },
      { lang: 'javascript', code: 'await fetch("https://example.com")', line: 9, norun: 'needs the network' },
      { lang: 'python', code: 'x = 1', line: 13, title: 'x.py', key: exampleKey({ lang: 'python', code: 'x = 1' }) },
    ]);
  });
});

describe('nobrowser="reason"', () => {
  it('is parsed onto the options and onto the example, beside the other options', () => {
    expect(parseCodeMeta('nobrowser="starts a subprocess"')).toEqual({
      highlight: new Set(),
      nobrowser: 'starts a subprocess',
    });
    expect(parseCodeMeta('title="a.py" nobrowser="reads the real clock" {1}')).toEqual({
      title: 'a.py',
      highlight: new Set([1]),
      nobrowser: 'reads the real clock',
    });
    const examples = compileBody(
      [
        fence('python', 'import subprocess', 'nobrowser="starts a subprocess"'),
        fence('js', 'console.log(process.argv)', 'nobrowser="uses process"'),
        fence('python', 'print(1)'),
      ].join('\n\n'),
    ).examples;
    expect(examples).toEqual([
      { lang: 'python', code: 'import subprocess', line: 5, nobrowser: 'starts a subprocess' },
      { lang: 'javascript', code: 'console.log(process.argv)', line: 9, nobrowser: 'uses process' },
      { lang: 'python', code: 'print(1)', line: 13, key: exampleKey({ lang: 'python', code: 'print(1)' }) },
    ]);
  });

  it('needs a reason', () => {
    expect(() => parseCodeMeta('nobrowser=""')).toThrow('nobrowser needs a reason');
    expect(() => parseCodeMeta('nobrowser="   "')).toThrow('nobrowser needs a reason');
    const error = thrown(() => compileBody(`Intro.\n\n${fence('python', 'x = 1', 'nobrowser=""')}`));
    expect(error).toBeInstanceOf(BookError);
    expect(error.message).toMatch(/^nobrowser needs a reason/);
    expect((error as BookError).position).toMatchObject({ line: 7, column: 1 });
  });

  it('applies to Python and JavaScript blocks only', () => {
    for (const lang of ['bash', 'typescript', 'text']) {
      const error = thrown(() => compileBody(`Intro.\n\n${fence(lang, 'x', 'nobrowser="why"')}`));
      expect(error).toBeInstanceOf(BookError);
      expect(error.message).toBe('nobrowser applies to python and javascript blocks only');
      expect((error as BookError).position).toMatchObject({ line: 7, column: 1 });
    }
  });
});
