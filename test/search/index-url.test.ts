import { describe, expect, it } from 'vitest';
import { indexRequestUrl, textRequestUrl } from '../../src/search/shared/index-url.js';

const PAGE = 'https://example.test/python-guide-for-javascript-engineers/dictionary/';

describe('indexRequestUrl', () => {
  it('adds the content hash as a cache-busting query to a same-origin index', () => {
    expect(indexRequestUrl('/python-guide-for-javascript-engineers/search-index.json', 'abc123def0', PAGE)).toBe(
      'https://example.test/python-guide-for-javascript-engineers/search-index.json?_=abc123def0',
    );
    expect(indexRequestUrl('../zh-cn/search-index.json', 'ffff', PAGE)).toBe(
      'https://example.test/python-guide-for-javascript-engineers/zh-cn/search-index.json?_=ffff',
    );
    expect(indexRequestUrl('https://example.test/x/search-index.json?_=old', 'new', PAGE)).toBe(
      'https://example.test/x/search-index.json?_=new',
    );
  });

  it("puts the pages' text files next to the index, with their own hash", () => {
    expect(
      textRequestUrl('/python-guide-for-javascript-engineers/zh-cn/search-index.json', '0123456789', 7, PAGE),
    ).toBe('https://example.test/python-guide-for-javascript-engineers/zh-cn/search-text/7.json?_=0123456789');
    expect(textRequestUrl('../search-index.json?_=old', 'new', 0, PAGE)).toBe(
      'https://example.test/python-guide-for-javascript-engineers/search-text/0.json?_=new',
    );
  });

  it.each([
    'https://evil.test/search-index.json',
    '//evil.test/search-index.json',
    'http://example.test/search-index.json',
    'https://example.test:8443/search-index.json',
    'javascript:alert(1)',
    'data:application/json,{}',
  ])("refuses %s with 'Unexpected version url'", (url) => {
    expect(() => indexRequestUrl(url, 'abc', PAGE)).toThrow(new Error('Unexpected version url'));
  });
});

describe('textRequestUrl', () => {
  it.each([
    'https://evil.test/search-index.json',
    '//evil.test/a/search-index.json',
    'javascript:alert(1)',
    'data:application/json,{}',
  ])("refuses a text file derived from %s with 'Unexpected version url'", (url) => {
    expect(() => textRequestUrl(url, 'abc', 0, PAGE)).toThrow(new Error('Unexpected version url'));
  });
});
