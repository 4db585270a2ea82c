import { describe, expect, it } from 'vitest';
import { resultHref } from '../../src/search/client/load-engine.js';
import type { SiteData } from '../../src/shared/model/page.js';

const site = (highlightOnTarget: boolean) =>
  ({
    search: { maxResults: 8, snippetLength: 50, highlightOnTarget, indexUrl: '/b/search-index.json', indexHash: 'abc' },
  }) as SiteData;

describe('resultHref', () => {
  it('asks the target page to highlight the query tokens, before the section hash', () => {
    expect(resultHref(site(true), '/b/dictionary/', '#merging', ' dictionaries  字典 ')).toBe(
      '/b/dictionary/?highlight=dictionaries%20%E5%AD%97%E5%85%B8#merging',
    );
    expect(resultHref(site(true), '/b/set/', undefined, 'set')).toBe('/b/set/?highlight=set');
  });

  it('leaves the highlight out when site.search.highlightOnTarget is false', () => {
    expect(resultHref(site(false), '/b/dictionary/', '#merging', 'dictionaries')).toBe('/b/dictionary/#merging');
  });
});
