import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtSiteDir } from '../helpers/browser.js';
import { ChineseSegmenter } from '../../src/search/node/jieba.js';
import { SearchEngine } from '../../src/search/shared/engine.js';
import type { SearchIndexFile } from '../../src/search/shared/index-format.js';
import { maximumMatchSegmenter, tokenize } from '../../src/search/shared/tokenize.js';

describe('tokenize', () => {
  it('stems English words and drops stop words', () => {
    expect(tokenize('The Dictionaries of a list comprehension', () => [])).toEqual([
      'dictionari',
      'list',
      'comprehens',
    ]);
    expect(tokenize("Python's f-string", () => [])).toEqual(['python', 'f', 'string']);
  });

  it('keeps the JavaScript keywords that are stop words only when asked (code and queries)', () => {
    expect(tokenize('for (const x of items) if (this.ok) {}', () => [])).toEqual(['const', 'x', 'item', 'ok']);
    expect(tokenize('for (const x of items) if (this.ok) {}', () => [], true)).toEqual([
      'for',
      'const',
      'x',
      'of',
      'item',
      'if',
      'this',
      'ok',
    ]);
    expect(tokenize('the end of it', () => [], true)).toEqual(['end', 'of']);
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
    const disagreements = headings.filter((heading) => {
      // The query's own rules (keywords kept), with jieba instead of maximum matching: only segmentation differs.
      const indexed = new Set(tokenize(heading, (run) => jieba.segment(run), true));
      return engine.queryTokens(heading).some((token) => !indexed.has(token));
    });
    expect(headings.length).toBeGreaterThan(300);
    // Forward maximum matching differs from jieba's dynamic programming on a few word boundaries
    // (遍历时 -> 遍历|时 vs 遍|历时); measured: 6 of 408 headings.
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
