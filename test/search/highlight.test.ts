import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { findMatches, highlightParts, snippetParts, type TextPart } from '../../src/search/highlight.js';
import { Highlighted } from '../../src/client/search/Highlighted.js';

const show = (parts: TextPart[]) => parts.map((p) => (p.match ? `[${p.text}]` : p.text)).join('');

describe('findMatches', () => {
  it('matches Latin words by stem and by prefix of the stem', () => {
    expect(show(highlightParts('Dictionaries and a dictionary; dict() too.', ['dictionari']))).toBe('[Dictionaries] and a [dictionary]; dict() too.');
    expect(show(highlightParts('Dictionaries and dict()', ['dict']))).toBe('[Dictionaries] and [dict]()');
    expect(findMatches('the and of', ['the'])).toEqual([]);
  });

  it('matches Chinese tokens inside runs and merges overlaps', () => {
    expect(show(highlightParts('创建虚拟环境，然后激活虚拟环境', ['虚拟', '环境']))).toBe('创建[虚拟环境]，然后激活[虚拟环境]');
    expect(show(highlightParts('Python 字典和 dict', ['python', '字典']))).toBe('[Python] [字典]和 dict');
  });
});

describe('snippetParts', () => {
  const text = 'Lists keep their order. Sets do not. A Python dictionary maps keys to values and remembers insertion order, unlike old versions.';

  it('cuts at most maxLength characters around the first match, ellipses included', () => {
    const parts = snippetParts(text, ['dictionari'], 50);
    const shown = parts.map((p) => p.text).join('');
    expect([...shown].length).toBeLessThanOrEqual(50);
    expect(shown.startsWith('…')).toBe(true);
    expect(shown.endsWith('…')).toBe(true);
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(['dictionary']);
  });

  it('shows the opening when nothing matches, and short texts whole', () => {
    expect(snippetParts(text, ['zzz'], 20).map((p) => p.text).join('')).toBe('Lists keep their or…');
    expect(show(snippetParts('Sets  do\nnot.', ['set'], 50))).toBe('[Sets] do not.');
  });

  it('keeps a match near the end of the text inside the window', () => {
    const shown = snippetParts(text, ['version'], 30).map((p) => p.text).join('');
    expect(shown).toContain('versions');
    expect([...shown].length).toBeLessThanOrEqual(30);
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
