import { describe, expect, it } from 'vitest';
import { toHtml } from 'hast-util-to-html';
import { h } from '../../src/export/node/hast.js';
import { linkTargetOf, prepareChapter, type ExportTargets } from '../../src/export/node/prepare-chapter.js';

const BASE = '/book/';
const targets: ExportTargets = {
  id: (slug, id) => `${slug}--${id}`,
  link: (_from, target) =>
    target.kind === 'chapter'
      ? `#${target.slug}${target.hash ? `--${target.hash}` : ''}`
      : target.kind === 'external'
        ? target.url
        : '#home',
  image: (sitePath) => (sitePath === 'img/a.svg' ? 'images/a.svg' : undefined),
  headingLevel: (depth) => (depth === 2 ? 3 : 7),
};

const html = `
<h2 id="intro" class="anchor">Intro<a class="hash-link" href="#intro">#</a></h2>
<p>See <a href="/book/sets/#algebra">algebra</a>, <a href="/book/">home</a>, <a href="https://example.com/x">docs</a> and <a href="#intro">above</a>.</p>
<img src="/book/img/a.svg" alt="a"><img src="/book/img/missing.svg" alt="b">
<div class="code-block" data-exercise-tests="def test(): pass"><div class="code-block-body"><pre class="code-pre" tabindex="0"><code>x = 1</code></pre><div class="code-buttons"><button>Copy</button></div></div><div class="code-run"><button>Run</button></div></div>
<div class="tabs" data-tabs=""><div role="tablist" class="tabs-list"><button role="tab">macOS</button></div>
<div role="tabpanel" class="tabs-panel" data-tab-panel="mac" data-tab-label="macOS"><p>brew</p></div>
<div role="tabpanel" class="tabs-panel" hidden="" data-tab-panel="win" data-tab-label="Windows"><p>winget</p><div class="code-block"><div class="code-buttons"><button>Copy</button></div></div></div></div>
<h3 id="ex">Exercise</h3>
<details class="answer hint"><summary>Hint</summary><div class="answer-content"><p>First hint</p></div></details>
<details class="answer"><summary>Show the answer</summary><div class="answer-content"><p>The answer, see <a href="#intro">intro</a></p></div></details>
<p>After</p>`;

describe('prepareChapter', () => {
  const { content, answers } = prepareChapter('set', html, BASE, '', targets, (entry) =>
    h('p', { className: ['answer-ref'] }, [`answer ${entry.number}`]),
  );
  const out = toHtml(content);

  it('drops the page controls: copy, wrap, Run, Check, section links', () => {
    expect(out).not.toMatch(/code-buttons|code-run|hash-link|<button|tablist/);
    expect(out).not.toContain('data-exercise-tests');
    expect(out).not.toContain('tabindex');
  });

  it('prints tabs one after another, each under its label', () => {
    expect(out).toMatch(/tabs-panel-label">macOS<\/p><p>brew<\/p>.*tabs-panel-label">Windows<\/p><p>winget/s);
    expect(out).not.toContain('hidden');
  });

  it('makes ids and links work inside the export', () => {
    expect(out).toContain('id="set--intro"');
    expect(out).toContain('href="#sets--algebra"');
    expect(out).toContain('href="#home"');
    expect(out).toContain('href="https://example.com/x"');
    expect(out).toContain('href="#set--intro"');
    expect(out).toContain('aria-level="3"');
    expect(out).toMatch(/<h3 id="set--ex" aria-level="7">/);
  });

  it("keeps the book's images and drops what the book does not have", () => {
    expect(out).toContain('src="images/a.svg"');
    expect(out).not.toContain('missing.svg');
  });

  it('moves hints and the answer to the appendix, leaving a link in their place', () => {
    expect(out).not.toContain('<details');
    expect(out).toMatch(/answer 1<\/p>\s*<p>After/);
    expect(answers).toHaveLength(1);
    expect(answers[0].parts.map((p) => [p.kind, p.label])).toEqual([
      ['hint', 'Hint'],
      ['answer', 'Show the answer'],
    ]);
    const moved = toHtml({ type: 'root', children: answers[0].parts[1].content });
    expect(moved).toContain('href="#set--intro"');
  });
});

describe('linkTargetOf', () => {
  it('sorts the links of the site', () => {
    expect(linkTargetOf('/book/zh-cn/set/#a', 'x', BASE, 'zh-cn/')).toEqual({
      kind: 'chapter',
      slug: 'set',
      hash: 'a',
    });
    expect(linkTargetOf('/book/set/', 'x', BASE, 'zh-cn/')).toEqual({ kind: 'external', url: '/book/set/' });
    expect(linkTargetOf('/book/zh-cn/', 'x', BASE, 'zh-cn/')).toEqual({ kind: 'home' });
    expect(linkTargetOf('/book/img/a.svg', 'x', BASE, '')).toEqual({ kind: 'static', sitePath: 'img/a.svg' });
    expect(linkTargetOf('mailto:a@b', 'x', BASE, '')).toEqual({ kind: 'external', url: 'mailto:a@b' });
    expect(linkTargetOf('#%E7%BB%83', 'x', BASE, '')).toEqual({ kind: 'chapter', slug: 'x', hash: '练' });
  });
});
