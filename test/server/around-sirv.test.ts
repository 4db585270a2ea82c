import type { Stats } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { acceptedEncodings } from '../../src/server/accepted-encodings.js';
import { rangeForSirv } from '../../src/server/byte-range.js';
import { contentTypeOf } from '../../src/server/content-type.js';

/** What sirv is told around the file it sends (see file-sender.ts). */

describe('acceptedEncodings', () => {
  it.each([
    [undefined, ''],
    ['', ''],
    ['gzip, deflate, br', 'br, gzip'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['BR;Q=0.5', 'br'],
    ['*', 'br, gzip'],
    ['*;q=0', ''],
    ['br;q=0, *', 'gzip'],
    ['gzip;q=0, br;q=0', ''],
    ['identity', ''],
    ['x-gzip', ''],
  ])('Accept-Encoding %s -> %s', (header, expected) => {
    expect(acceptedEncodings(header === undefined ? {} : { 'accept-encoding': header })).toBe(expected);
  });
});

describe('rangeForSirv', () => {
  const mtimeMs = Date.parse('Sun, 22 Nov 2026 10:00:00 GMT') + 789;
  const stats = { size: 1000, mtimeMs } as Stats;

  it.each([
    [undefined, undefined],
    ['bytes=0-99', 'bytes=0-99'],
    ['bytes=500-', 'bytes=500-'],
    ['bytes=990-5000', 'bytes=990-5000'],
    ['bytes=-100', 'bytes=900-'],
    ['bytes=-5000', 'bytes=0-'],
    // Unsatisfiable: sirv answers 416 for a start at or past the end.
    ['bytes=-0', 'bytes=1000-'],
    ['bytes=2000-', 'bytes=2000-'],
    // Sent whole: sirv would read an end of 0 as "to the end", and an end before the start is no range.
    ['bytes=0-0', undefined],
    ['bytes=5-2', undefined],
    ['bytes=0-1, 5-6', undefined],
    ['bytes=-', undefined],
    ['items=0-1', undefined],
  ])('Range %s -> %s', (range, expected) => {
    expect(rangeForSirv(range, undefined, stats)).toBe(expected);
  });

  it('keeps the range of a resumed download only while the file has the date the client has', () => {
    expect(rangeForSirv('bytes=500-', 'Sun, 22 Nov 2026 10:00:00 GMT', stats)).toBe('bytes=500-');
    expect(rangeForSirv('bytes=500-', 'Sun, 22 Nov 2026 09:59:59 GMT', stats)).toBeUndefined();
    expect(rangeForSirv('bytes=500-', 'not a date', stats)).toBeUndefined();
    // If-Range compares entity tags strongly; sirv's are weak, so a tag never matches.
    expect(rangeForSirv('bytes=500-', 'W/"1000-1795860000789"', stats)).toBeUndefined();
  });
});

describe('contentTypeOf', () => {
  it.each([
    ['x/A.HTML', 'text/html; charset=utf-8'],
    ['a.css', 'text/css; charset=utf-8'],
    ['a.mjs', 'text/javascript; charset=utf-8'],
    ['a.json', 'application/json; charset=utf-8'],
    ['a.webmanifest', 'application/manifest+json; charset=utf-8'],
    ['a.svg', 'image/svg+xml; charset=utf-8'],
    ['a.py', 'text/x-python; charset=utf-8'],
    ['a.wasm', 'application/wasm'],
    ['a.png', 'image/png'],
    ['favicon.ico', 'image/x-icon'],
    ['noext', 'application/octet-stream'],
    ['a.unknown-extension', 'application/octet-stream'],
  ])('%s is %s', (file, type) => {
    expect(contentTypeOf(file)).toBe(type);
  });
});
