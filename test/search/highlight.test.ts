import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { findMatches, highlightParts, snippetParts, type TextPart } from '../../src/search/shared/highlight.js';
import { Highlighted } from '../../src/search/client/Highlighted.js';
import { maximumMatchSegmenter } from '../../src/search/shared/tokenize.js';

const show = (parts: TextPart[]) => parts.map((p) => (p.match ? `[${p.text}]` : p.text)).join('');

describe('findMatches', () => {
  it('matches Latin words by stem and by prefix of the stem', () => {
    expect(show(highlightParts('Dictionaries and a dictionary; dict() too.', ['dictionari']))).toBe(
      '[Dictionaries] and a [dictionary]; dict() too.',
    );
    expect(show(highlightParts('Dictionaries and dict()', ['dict']))).toBe('[Dictionaries] and [dict]()');
    expect(findMatches('the and of', ['the'])).toEqual([]);
  });

  it("matches JavaScript's operators where the index reads them, never one inside another", () => {
    expect(show(highlightParts('Use === where JavaScript has == and !==.', ['===']))).toBe(
      'Use [===] where JavaScript has == and !==.',
    );
    expect(show(highlightParts('x ?? y and a?.b', ['??', '?.']))).toBe('x [??] y and a[?.]b');
    // The `?` of a conditional is `?:`; a regular expression's `?` is no operator.
    expect(show(highlightParts('n > 1 ? "s" : "" and /a+?/', ['?:']))).toBe('n > 1 [?] "s" : "" and /a+?/');
    expect(show(highlightParts('f(...args) and [...] and { ...a }', ['...']))).toBe(
      'f([...]args) and [...] and { ...a }',
    );
  });

  it('matches Chinese tokens inside runs and merges overlaps', () => {
    expect(show(highlightParts('创建虚拟环境，然后激活虚拟环境', ['虚拟', '环境']))).toBe(
      '创建[虚拟环境]，然后激活[虚拟环境]',
    );
    expect(show(highlightParts('Python 字典和 dict', ['python', '字典']))).toBe('[Python] [字典]和 dict');
  });

  it('with a segmenter, marks Chinese tokens as whole words (or words inside longer ones), never a lone character inside a word', () => {
    const segment = maximumMatchSegmenter(
      new Set(['表达式', '表达', '列表', '推导', '字典', '虚拟环境', '虚拟', '环境', '生成器']),
      4,
    );
    const tokens = ['列表', '推导', '式'];
    expect(show(highlightParts('列表推导式是表达式；字典推导式也是', tokens, segment))).toBe(
      '[列表推导式]是表达式；字典[推导式]也是',
    );
    expect(show(highlightParts('创建虚拟环境', ['虚拟'], segment))).toBe('创建[虚拟]环境');
    expect(show(snippetParts('表达式与生成器表达式，都不是推导式', tokens, 50, segment))).toBe(
      '表达式与生成器表达式，都不是[推导式]',
    );
    // Without one, a token matches wherever it occurs (the 式 of 表达式 too).
    expect(show(highlightParts('表达式', ['式']))).toBe('表达[式]');
  });
});

describe('snippetParts', () => {
  const text =
    'Lists keep their order. Sets do not. A Python dictionary maps keys to values and remembers insertion order, unlike old versions.';

  it('cuts at most maxLength characters around the first match, ellipses included', () => {
    const parts = snippetParts(text, ['dictionari'], 50);
    const shown = parts.map((p) => p.text).join('');
    expect([...shown].length).toBeLessThanOrEqual(50);
    expect(shown.startsWith('…')).toBe(true);
    expect(shown.endsWith('…')).toBe(true);
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(['dictionary']);
  });

  it('shows the opening when nothing matches, and short texts whole', () => {
    // Cut between words, not inside "order".
    expect(
      snippetParts(text, ['zzz'], 20)
        .map((p) => p.text)
        .join(''),
    ).toBe('Lists keep their…');
    expect(show(snippetParts('Sets  do\nnot.', ['set'], 50))).toBe('[Sets] do not.');
  });

  it('keeps a match near the end of the text inside the window', () => {
    const shown = snippetParts(text, ['version'], 30)
      .map((p) => p.text)
      .join('');
    expect(shown).toContain('versions');
    expect([...shown].length).toBeLessThanOrEqual(30);
  });
});

describe('snippet edges', () => {
  const words =
    'Dictionaries remember insertion order while comprehensions transform collections elegantly and predictably every time they run';
  it.each([20, 30, 40, 50, 60])('never cut an English word in half (window of %i)', (size) => {
    for (const token of ['insertion', 'comprehens', 'collect', 'predict']) {
      const shown = snippetParts(words, [token], size)
        .map((p) => p.text)
        .join('');
      const inner = shown.replace(/^…/, '').replace(/…$/, '');
      expect(words.includes(inner), `${token}/${size}: "${shown}"`).toBe(true);
      const at = words.indexOf(inner);
      if (shown.startsWith('…')) expect(words[at - 1]).toMatch(/\W/);
      if (shown.endsWith('…')) expect(words[at + inner.length]).toMatch(/\W/);
      expect([...shown].length).toBeLessThanOrEqual(size);
    }
  });

  it('never ends in half of a surrogate pair', () => {
    const text = `${'字'.repeat(30)}😀${'字'.repeat(30)}`;
    for (let size = 20; size < 40; size++) {
      const shown = snippetParts(text, ['zzz'], size)
        .map((p) => p.text)
        .join('');
      expect(shown).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    }
  });
});

describe('snippets cut from a whole section', () => {
  const filler = (n: number) => 'Python keeps the code readable and the rules simple. '.repeat(n);
  const cut = (parts: TextPart[]) => parts.map((p) => p.text).join('');

  it('finds a match deep in a long English section and keeps it inside the 50 characters', () => {
    const text = `${filler(20)}A frozenset is a set that cannot change after creation. ${filler(10)}`;
    expect(text.indexOf('frozenset')).toBeGreaterThan(1000);
    const parts = snippetParts(text, ['frozenset'], 50);
    expect([...cut(parts)].length).toBeLessThanOrEqual(50);
    expect(cut(parts).startsWith('…')).toBe(true);
    expect(cut(parts).endsWith('…')).toBe(true);
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(['frozenset']);
  });

  it('finds a match deep in a long Chinese section', () => {
    const text = `${'变量是存放数据的名字，赋值时不需要声明类型。'.repeat(40)}冻结集合创建之后不能修改。${'列表可以修改。'.repeat(20)}`;
    expect(text.indexOf('冻结集合')).toBeGreaterThan(800);
    const parts = snippetParts(text, ['冻结', '集合'], 50);
    expect([...cut(parts)].length).toBeLessThanOrEqual(50);
    expect(cut(parts)).toMatch(/^….*冻结集合创建之后不能修改。.*…$/);
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(['冻结集合']);
  });

  it('prefers the window that shows the most query terms over the first match', () => {
    const text = `A set is unordered. ${filler(5)}The union and intersection of two sets build new sets. ${filler(5)}`;
    const marked = snippetParts(text, ['set', 'union', 'intersect'], 50)
      .filter((p) => p.match)
      .map((p) => p.text);
    expect(marked).toEqual(expect.arrayContaining(['union', 'intersection']));
    const zh = `集合是无序的。${'变量是存放数据的名字。'.repeat(8)}两个集合的并集和交集都是新的集合。`;
    const zhMarked = snippetParts(zh, ['集合', '并集', '交集'], 50)
      .filter((p) => p.match)
      .map((p) => p.text);
    expect(zhMarked).toEqual(expect.arrayContaining(['并集', '交集']));
  });

  it('shows a lone match at the very end of a long section without running past the text', () => {
    const text = `${filler(30)}The end mentions lambda.`;
    const shown = cut(snippetParts(text, ['lambda'], 50));
    expect(shown.endsWith('mentions lambda.')).toBe(true);
    expect([...shown].length).toBeLessThanOrEqual(50);
  });
});

describe('rendering snippets', () => {
  it('renders markup from a chapter as text, never as HTML', () => {
    const evil = 'Use <img src=x onerror=alert(1)> with care: onerror runs.';
    const html = renderToStaticMarkup(createElement(Highlighted, { parts: snippetParts(evil, ['onerror'], 100) }));
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x <mark class="search-match">onerror</mark>=alert(1)&gt;');
  });
});
