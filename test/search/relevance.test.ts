import { describe, expect, it } from 'vitest';
import { builtSiteDir } from '../helpers/browser.js';
import {
  HELD_OUT_JAVASCRIPT_NAME_QUERIES,
  HELD_OUT_JAVASCRIPT_SYMBOL_QUERIES,
  inLanguage,
  JAVASCRIPT_NAME_QUERIES,
  JAVASCRIPT_SYMBOL_QUERIES,
  loadEngine,
  RELEVANCE_QUERIES,
} from './relevance-queries.js';

// The engine is the one the browser runs, loaded from the index files the build wrote.
const slugOf = (url: string) => url.split('/').filter(Boolean).at(-1);

describe.each(['en', 'zh'] as const)('relevance (%s)', (language) => {
  const engine = loadEngine(builtSiteDir(), language);

  it('has at least 30 queries', () => expect(RELEVANCE_QUERIES[language].length).toBeGreaterThanOrEqual(30));

  it.each(RELEVANCE_QUERIES[language])('%s -> %s first', (query, slug) => {
    const [first] = engine.search(query, { limit: 8 });
    expect(first, `no result for ${query}`).toBeDefined();
    expect(slugOf(first.doc.u)).toBe(slug);
  });
});

describe.each(['en', 'zh'] as const)(
  'JavaScript names find the chapter that teaches the Python counterpart (%s)',
  (language) => {
    const engine = loadEngine(builtSiteDir(), language);
    const firstSlug = (query: string) => slugOf(engine.search(query, { limit: 1 })[0]?.doc.u ?? '');
    const misses = (queries: [string, string][]) =>
      queries.filter(([query, slug]) => firstSlug(query) !== slug).map(([query]) => query);

    it("the comparisons' JavaScript code finds what prose alone does not", () => {
      // Names that appear only in the JavaScript side of a comparison, not in any prose.
      expect(firstSlug('setTimeout')).toBe('async-and-await');
      expect(firstSlug('Object.keys')).toBe('dictionary');
    });

    it('finds JavaScript keywords that are English stop words (`for...of` had no results at all)', () => {
      expect(firstSlug('for...of')).toBe('for-and-while-statement');
      expect(engine.queryTokens('for...of')).toEqual(['for', 'of']);
      // In titles, headings and descriptions they stay stop words.
      const types = engine.search('of the', { limit: 8 }).map((hit) => hit.type);
      expect(types.filter((type) => type === 'Title' || type === 'Heading' || type === 'Description')).toEqual([]);
    });

    it('a code query finds the section whose heading writes it as typed before a chapter titled with one of its words', () => {
      // "print and console.log" (hello-world) against the chapter titled "Logging and debugging".
      expect(firstSlug('console.log')).toBe('hello-world');
    });

    // Measured: en 23 of 26 (20 before code queries weighed code over headings), zh 20 of 26 (19).
    it('puts the right chapter first for most of the tuned set', () => {
      const missed = misses(JAVASCRIPT_NAME_QUERIES);
      expect(missed.length, missed.join(', ')).toBeLessThanOrEqual(language === 'en' ? 3 : 6);
    });

    // Never tuned on. Measured: en 17 of 22 (17 before), zh 17 of 22 (14 before); with Book 1.3's
    // chapters, en 13 and zh 13, and with the operator search en 14 and zh 15 (data-modelling now
    // answers "TypeScript interface" and "export default", code-quality-tools and decorators take
    // others). The bound is that measurement, so that it can only get better: 17 of 22 was the goal,
    // and Book 1.3 is below it (said in issue 40's note); tuning on this set would hide why.
    it('puts the right chapter first for most of the held-out set', () => {
      const missed = misses(HELD_OUT_JAVASCRIPT_NAME_QUERIES);
      expect(missed.length, missed.join(', ')).toBeLessThanOrEqual(8);
    });
  },
);

/**
 * JavaScript's operators, syntax and API names (issue 5): the chapter that teaches the Python
 * counterpart comes first for at least 90% of the queries and among the first three for all, in
 * both languages. Found from the book: the comparisons' JavaScript, the inline code of headings,
 * prose and tables, and the few sections whose `::keywords` say what their text cannot (`!==`,
 * `instanceof`, object spread).
 */
describe.each(['en', 'zh'] as const)('JavaScript operators and names (%s)', (language) => {
  const engine = loadEngine(builtSiteDir(), language);
  const rank = (query: string, slug: string) =>
    [...new Set(engine.search(query, { limit: 40 }).map((hit) => slugOf(hit.doc.u)))].indexOf(slug);
  const report = (queries: [string, string][]) => {
    const ranks = queries.map(([query, slug]) => [query, rank(query, slug)] as const);
    return {
      top1: ranks.filter(([, r]) => r === 0).length,
      top3: ranks.filter(([, r]) => r >= 0 && r < 3).length,
      missed: ranks.filter(([, r]) => r !== 0).map(([query, r]) => `${query} (${r < 0 ? 'not found' : `#${r + 1}`})`),
      notInTop3: ranks.filter(([, r]) => r < 0 || r >= 3).map(([query]) => query),
    };
  };
  const tuned = inLanguage(JAVASCRIPT_SYMBOL_QUERIES, language);
  const heldOut = inLanguage(HELD_OUT_JAVASCRIPT_SYMBOL_QUERIES, language);

  it('the tuned set has at least 30 queries, the held-out set its own', () => {
    expect(tuned.length).toBeGreaterThanOrEqual(30);
    expect(heldOut.length).toBeGreaterThanOrEqual(15);
    const tunedQueries = new Set(tuned.map(([query]) => query));
    expect(heldOut.filter(([query]) => tunedQueries.has(query))).toEqual([]);
  });

  // Measured: en 29 of 31, zh 28 of 31 first (7 and 8 before); all 31 among the first three (13 and 12).
  it('puts the chapter first for at least 90% of the tuned set, and among the first three for all', () => {
    const { top1, missed, notInTop3 } = report(tuned);
    expect(top1 / tuned.length, missed.join(', ')).toBeGreaterThanOrEqual(0.9);
    expect(notInTop3).toEqual([]);
  });

  // Never tuned on. Measured: en 12 of 19 first and 16 among the first three (6 and 11 before), zh 12 and 17 (6 and 11).
  it('holds the held-out set', () => {
    const { top1, top3, missed } = report(heldOut);
    expect(top1, missed.join(', ')).toBeGreaterThanOrEqual(12);
    expect(top3, missed.join(', ')).toBeGreaterThanOrEqual(16);
  });

  it('finds every operator of the tuned set: none gives no results', () => {
    for (const [query] of tuned) expect(engine.search(query, { limit: 1 }), query).toHaveLength(1);
  });
});
