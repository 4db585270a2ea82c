import { describe, expect, it } from 'vitest';
import { contentEtag, encodedEtag, isNotModified } from '../../src/server/caching.js';

describe('ETags', () => {
  it('are strong, stable for equal content and distinct per encoding', () => {
    const etag = contentEtag('hello');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(contentEtag(Buffer.from('hello'))).toBe(etag);
    expect(contentEtag('hello!')).not.toBe(etag);
    expect(encodedEtag(etag, 'br')).toBe(`${etag.slice(0, -1)}-br"`);
    expect(encodedEtag(etag, undefined)).toBe(etag);
  });
});

describe('isNotModified', () => {
  const etag = '"abc123"';
  const mtimeMs = Date.parse('Sun, 22 Nov 2026 10:00:00 GMT') + 789;

  it.each([
    ['"abc123"', true],
    ['W/"abc123"', true],
    ['"abc123-br"', true],
    ['"abc123-gzip"', true],
    ['"x", "abc123"', true],
    ['*', true],
    ['"abc123-zstd"', false],
    ['"abc12"', false],
    ['"other"', false],
  ])('If-None-Match %s -> %s', (header, expected) => {
    expect(isNotModified({ 'if-none-match': header }, etag, mtimeMs)).toBe(expected);
  });

  it('compares If-Modified-Since at one-second resolution', () => {
    expect(isNotModified({ 'if-modified-since': 'Sun, 22 Nov 2026 10:00:00 GMT' }, etag, mtimeMs)).toBe(true);
    expect(isNotModified({ 'if-modified-since': 'Sun, 22 Nov 2026 09:59:59 GMT' }, etag, mtimeMs)).toBe(false);
    expect(isNotModified({ 'if-modified-since': 'not a date' }, etag, mtimeMs)).toBe(false);
    expect(isNotModified({}, etag, mtimeMs)).toBe(false);
  });
});
