import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtSiteDir } from '../helpers/browser.js';
import { ChineseSegmenter } from '../../src/search/node/jieba.js';
import { SearchEngine } from '../../src/search/shared/engine.js';
import type { SearchIndexFile } from '../../src/search/shared/index-format.js';
import {
  codeTokens,
  isSymbol,
  keywordTokens,
  maximumMatchSegmenter,
  mixedTokens,
  operatorsAt,
  tokenize,
} from '../../src/search/shared/tokenize.js';

describe('tokenize', () => {
  it('stems English words and drops stop words', () => {
    expect(tokenize('The Dictionaries of a list comprehension', () => [])).toEqual([
      'dictionari',
      'list',
      'comprehens',
    ]);
    expect(tokenize("Python's f-string", () => [])).toEqual(['python', 'f', 'string']);
  });

  it('reads code as identifiers as written, member accesses and operators', () => {
    const none = () => [];
    expect(codeTokens('for (const x of items) if (this.ok) {}', none)).toEqual([
      'for',
      'const',
      'of',
      'items',
      'if',
      'this',
      'ok',
      'this.ok',
    ]);
    // Prose drops stop words and stems; code keeps them as written (one-letter names and numbers aside).
    expect(tokenize('for (const x of items) if (this.ok) {}', none)).toEqual(['const', 'x', 'item', 'ok']);
    expect(codeTokens('Array.from(s).forEach((c) => n += 1)', none)).toEqual([
      'array',
      'from',
      'array.from',
      'foreach',
      '=>',
      '+=',
    ]);
    expect(codeTokens('node_modules package.json $el __init__', none)).toEqual([
      'node_modules',
      'package',
      'json',
      'package.json',
      '$el',
      '__init__',
    ]);
  });

  it('reads each operator as one token, the longest that fits', () => {
    const none = () => [];
    expect(codeTokens('a === b !== c == d != e', none)).toEqual(['===', '!==', '==', '!=']);
    expect(codeTokens('x ?? y?.z ??= w || v && u', none)).toEqual(['??', '?.', '??=', '||', '&&']);
    expect(codeTokens('`${name}` ** 2 % 3', none)).toEqual(['`', '${', 'name', '`', '**', '%']);
    // `?.` before a digit is a conditional and a number, as JavaScript reads it.
    expect(codeTokens('a?.5:b', none)).toEqual([]);
    expect(isSymbol('===')).toBe(true);
    expect(isSymbol('?:')).toBe(true);
    expect(isSymbol('map')).toBe(false);
  });

  it('tells the operators apart by where they stand, as JavaScript does', () => {
    const none = () => [];
    // A conditional is `?:`; a `?` in a regular expression or a TypeScript type is none.
    expect(codeTokens('const label = n === 1 ? "item" : "items";', none)).toContain('?:');
    expect(codeTokens('a ? b : c', none)).toEqual(['?:']);
    expect(codeTokens('/\\d+?/ and x?: T', none)).toEqual(['and']);
    expect(codeTokens('?', none)).toEqual(['?']);
    // Spread before what it spreads; object spread is `{...}`; placeholders and `for...of` dots are none.
    expect(codeTokens('f(...args) [...a]', none)).toEqual(['...', 'args', '...']);
    expect(codeTokens('{ ...defaults, ...saved }', none)).toEqual(['{...}', 'defaults', '{...}', 'saved']);
    expect(codeTokens('gather(...) for...of [...]', none)).toEqual(['gather', 'for', 'of']);
    expect(codeTokens('...', none)).toEqual(['...']);
  });

  it('cuts headings and keywords as prose with the names prose cannot make', () => {
    const none = () => [];
    expect(mixedTokens('print and console.log', none)).toEqual(['print', 'consol', 'log', 'console.log']);
    expect(mixedTokens('venv versus node_modules', none)).toEqual(['venv', 'versu', 'node', 'modul', 'node_modules']);
    expect(mixedTokens('The === operator', none)).toEqual(['oper', '===']);
    // Keywords are what readers type: every code token besides the prose ones.
    expect(keywordTokens('require', none)).toEqual(['requir', 'require']);
    expect(keywordTokens('for else', none)).toEqual(['for', 'else']);
  });

  it('finds the operators of displayed text where the index reads them', () => {
    expect(operatorsAt('a === b, x ? y : z')).toEqual([
      ['===', 2, 5],
      ['?:', 11, 12],
    ]);
  });

  it('hands Chinese runs to the segmenter and drops Chinese stop words', () => {
    expect(
      tokenize('Python 的字典和列表', (run) => (run === '的字典和列表' ? ['的', '字典', '和', '列表'] : [run])),
    ).toEqual(['python', '字典', '列表']);
  });

  it('maximum matching prefers the longest known word and falls back to characters', () => {
    const segment = maximumMatchSegmenter(new Set(['列表', '推导', '列表推导', '环境']), 4);
    expect(segment('列表推导式')).toEqual(['列表推导', '式']);
    expect(segment('虚拟环境')).toEqual(['虚', '拟', '环境']);
  });
});

describe('browser maximum matching agrees with jieba on the book', () => {
  const file = JSON.parse(
    readFileSync(path.join(builtSiteDir(), 'zh-cn', 'search-index.json'), 'utf8'),
  ) as SearchIndexFile;
  const engine = new SearchEngine(file);
  const headings = [...new Set([...file.pages.map((p) => p[0]), ...file.docs.map((d) => d[1]).filter(Boolean)])];
  const jieba = new ChineseSegmenter(() => headings.join('\n'));

  it('cuts nearly every Chinese heading into words jieba also produced for it', () => {
    const chinese = (tokens: string[]) => tokens.filter((token) => /[\u3400-\u9fff]/.test(token));
    const disagreements = headings.filter((heading) => {
      // The same heading cut by jieba (as the index is) and by the engine's maximum matching (as a query is).
      const indexed = new Set(tokenize(heading, (run) => jieba.segment(run)));
      return chinese(engine.queryTokens(heading)).some((token) => !indexed.has(token));
    });
    expect(headings.length).toBeGreaterThan(300);
    // Forward maximum matching differs from jieba's dynamic programming on a few word boundaries
    // (遍历时 -> 遍历|时 vs 遍|历时); measured: 6 of 408 headings with jieba's HMM, which the index no
    // longer uses (it glued characters into words a query could not find: 上星标 in 上星标最多).
    expect(disagreements.length / headings.length).toBeLessThan(0.03);
  });

  it('finds every distinctively titled section by its own heading', () => {
    const counts = new Map<string, number>();
    for (const doc of engine.documents) if (doc.s) counts.set(doc.s, (counts.get(doc.s) ?? 0) + 1);
    const missed = engine.documents
      .filter((doc) => doc.s && counts.get(doc.s) === 1 && engine.queryTokens(doc.s).length > 0)
      .filter((doc) => !engine.search(doc.s!, { limit: 5 }).some((hit) => hit.doc.i === doc.i))
      .map((doc) => doc.s);
    expect(missed).toEqual([]);
  });
});
