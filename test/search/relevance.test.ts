import { describe, expect, it } from 'vitest';
import { builtSiteDir } from '../helpers/browser.js';
import { JAVASCRIPT_NAME_QUERIES, loadEngine, RELEVANCE_QUERIES } from './relevance-queries.js';

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

describe('JavaScript names find the chapter that teaches the Python counterpart (en)', () => {
  const engine = loadEngine(builtSiteDir(), 'en');
  const firstSlug = (query: string) => slugOf(engine.search(query, { limit: 1 })[0]?.doc.u ?? '');

  it('the comparisons\' JavaScript code finds what prose alone does not', () => {
    // Names that appear only in the JavaScript side of a comparison, not in any prose.
    expect(firstSlug('setTimeout')).toBe('async-and-await');
    expect(firstSlug('Object.keys')).toBe('dictionary');
  });

  // 20 of 26 today (19 before the JavaScript field); the goal is all of them.
  it('puts the right chapter first for at least 75% of the query set', () => {
    const misses = JAVASCRIPT_NAME_QUERIES.filter(([query, slug]) => firstSlug(query) !== slug);
    expect(misses.length / JAVASCRIPT_NAME_QUERIES.length, misses.map(([q]) => q).join(', ')).toBeLessThanOrEqual(0.25);
  });
});
