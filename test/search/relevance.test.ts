import { describe, expect, it } from 'vitest';
import { builtSiteDir } from '../helpers/browser.js';
import { loadEngine, RELEVANCE_QUERIES } from './relevance-queries.js';

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
