import type { Element, ElementContent, Properties, Root } from 'hast';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/shared/i18n/en.js';
import { zhCn } from '../../src/shared/i18n/zh-cn.js';
import { renderContentHtml } from '../../src/theme/content/index.js';

const h = (tagName: string, properties: Properties = {}, children: ElementContent[] = []): Element => ({
  type: 'element',
  tagName,
  properties,
  children,
});
const t = (value: string): ElementContent => ({ type: 'text', value });
const root = (...children: ElementContent[]): Root => ({ type: 'root', children });
const render = (tree: Root, runnable: ReadonlySet<string> = new Set(), strings = en) =>
  renderContentHtml(tree, { strings, runnable });

describe('chapter content rendered by the React components (src/theme/content)', () => {
  it('writes markdown elements with React-style attributes and escaping', () => {
    const html = render(
      root(
        h('p', {}, [
          t(`Tom & "Jerry" <b> it's`),
          h('br'),
          h('a', { href: '/a?x=1&y="2"', title: "it's" }, [t('link')]),
        ]),
        h('ol', { start: 3 }, [h('li', { className: ['task', 'done'] }, [t('three')])]),
        h('img', { src: 'a.png', alt: '' }),
      ),
    );
    expect(html).toBe(
      '<p>Tom &amp; &quot;Jerry&quot; &lt;b&gt; it&#x27;s<br/><a href="/a?x=1&amp;y=&quot;2&quot;" title="it&#x27;s">link</a></p>' +
        '<ol start="3"><li class="task done">three</li></ol><img src="a.png" alt=""/>',
    );
  });

  it('keeps tables free of whitespace text and writes cell alignment as a style', () => {
    const html = render(
      root(
        h('table', { tabIndex: 0 }, [
          t('\n'),
          h('tbody', {}, [t('\n'), h('tr', {}, [t('\n'), h('td', { align: 'right' }, [t(' 1 ')])])]),
        ]),
      ),
    );
    expect(html).toBe('<table tabindex="0"><tbody><tr><td style="text-align:right"> 1 </td></tr></tbody></table>');
  });

  it('gives headings a labelled link to themselves, with the text of their inline code', () => {
    const html = render(
      root(
        h('h2', { id: 'the-map-type' }, [t('The '), h('code', {}, [t('Map')]), t(' type')]),
        h('h3', {}, [t('No id')]),
      ),
    );
    expect(html).toBe(
      '<h2 id="the-map-type" class="anchor">The <code>Map</code> type' +
        '<a class="hash-link" href="#the-map-type" aria-label="Direct link to The Map type" title="Direct link to The Map type">#</a></h2>' +
        '<h3 class="anchor">No id</h3>',
    );
  });

  const code = (properties: Properties) =>
    h('CodeBlock', { lang: 'python', codeHtml: '<span class="tok-keyword">pass</span>', width: 4, ...properties });

  it('offers Run only for examples that passed in the browser, and says why others cannot run', () => {
    const runnable = render(root(code({ exampleKey: 'k1' })), new Set(['k1']));
    expect(runnable).toContain(
      '<div class="code-run" data-run-lang="python"><button type="button" class="code-run-button" data-code-action="run" aria-label="Run this Python example (Ctrl+Enter)"',
    );
    expect(runnable).toContain('<code class="language-python"><span class="tok-keyword">pass</span></code>');
    const unchecked = render(root(code({ exampleKey: 'k2' })), new Set(['k1']));
    expect(unchecked).not.toContain('data-code-action="run"');
    expect(unchecked).toContain(`data-reason="${en.runner.notChecked.replaceAll("'", '&#x27;')}"`);
    expect(render(root(code({ cannotRun: 'reads <stdin>' })))).toContain('data-reason="reads &lt;stdin&gt;"');
    expect(render(root(code({ cannotRun: '', cannotRunPytest: true })))).toContain(
      `data-reason="${en.runner.cannotRunPytest}"`,
    );
    expect(render(root(h('CodeBlock', { lang: 'bash', codeHtml: 'ls' })))).not.toContain('code-run');
  });

  it('writes a code block with its title, escaped output and the raised exception', () => {
    const html = render(root(code({ title: 'main.py', output: 'a < b & "c"', raises: 'ValueError' })));
    expect(html).toMatch(
      /^<div class="code-block" data-lang="python" data-raises="ValueError"><div class="code-block-title">main.py<\/div>/,
    );
    expect(html).toContain('<pre class="code-output-pre" tabindex="0"><code>a &lt; b &amp; &quot;c&quot;</code></pre>');
  });

  it('gives each column of a comparison the width of its longest line, for the layout to size them', () => {
    const html = render(
      root(h('Compare', {}, [t('\n'), code({ lang: 'javascript', width: 42 }), t('\n'), code({ width: 12 }), t('\n')])),
    );
    expect(html).toMatch(
      /^<div class="compare"><div class="compare-grid"><div class="compare-column" style="--code-columns:42"><div class="compare-label">JavaScript<\/div><div class="code-block" data-lang="javascript"/,
    );
    expect(html).toContain(
      '<div class="compare-column" style="--code-columns:12"><div class="compare-label">Python</div>',
    );
    expect(html.match(/class="compare-column"/g)).toHaveLength(2);
  });

  it('writes tabs whose ids are unique on the page, the default tab open and the others hidden', () => {
    const tabs = (group: string) =>
      h('Tabs', { groupId: group, defaultValue: 'windows' }, [
        h('TabItem', { value: 'macos', label: 'macOS' }, [h('p', {}, [t('brew')])]),
        h('TabItem', { value: 'windows', label: 'Windows' }, [h('p', {}, [t('installer')])]),
      ]);
    const html = render(root(tabs('os'), tabs('shell')));
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(8);
    expect(html).toContain('<div class="tabs" data-tabs="" data-group="os"><div role="tablist" class="tabs-list">');
    expect(html).toMatch(
      /<button type="button" role="tab" class="tabs-tab" id="(\w+)-tab-windows" aria-selected="true" aria-controls="\1-panel-windows" tabindex="0" data-tab="windows">Windows<\/button>/,
    );
    expect(html).toMatch(
      /id="(\w+)-panel-macos" aria-labelledby="\1-tab-macos" hidden="" data-tab-panel="macos" data-tab-label="macOS"><p>brew<\/p><\/div>/,
    );
    expect(html).toMatch(/data-tab-panel="windows" data-tab-label="Windows"><p>installer<\/p>/);
  });

  it("writes admonitions and answers with the locale's default titles", () => {
    expect(render(root(h('Admonition', { kind: 'warning' }, [h('p', {}, [t('Careful')])])), new Set(), zhCn)).toBe(
      `<div class="admonition admonition-warning" role="note"><p class="admonition-heading"><span class="admonition-icon" aria-hidden="true">⚠</span>${zhCn.admonition.warning}</p><div class="admonition-content"><p>Careful</p></div></div>`,
    );
    expect(render(root(h('Admonition', { kind: 'tip', title: 'A <tip>' })))).toContain('</span>A &lt;tip&gt;</p>');
    expect(render(root(h('Answer', {}, [h('p', {}, [t('42')])])))).toBe(
      `<details class="answer"><summary>${en.showAnswer}</summary><div class="answer-content"><p>42</p></div></details>`,
    );
  });
});
