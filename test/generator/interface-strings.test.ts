import { describe, expect, it } from 'vitest';
import { en } from '../../src/shared/i18n/en.js';
import { plural, stringsFor } from '../../src/shared/i18n/index.js';
import { zhCn } from '../../src/shared/i18n/zh-cn.js';

/** Flattens nested string tables to dotted keys: admonition.note, readingTime.one, ... */
function flatten(value: unknown, prefix = ''): Record<string, unknown> {
  if (value === null || typeof value !== 'object') return { [prefix]: value };
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, child]) => Object.entries(flatten(child, prefix ? `${prefix}.${key}` : key))),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('interface strings', () => {
  const english = flatten(en);
  const chinese = flatten(zhCn);

  it('exist in both languages with the same keys', () => {
    expect(Object.keys(chinese).sort()).toEqual(Object.keys(english).sort());
    expect(Object.keys(english).length).toBeGreaterThan(60);
  });

  it('are non-empty strings', () => {
    for (const [key, value] of [...Object.entries(english), ...Object.entries(chinese)]) {
      expect(typeof value, key).toBe('string');
      expect((value as string).trim(), key).not.toBe('');
    }
  });

  it('use the same placeholders in both languages', () => {
    for (const key of Object.keys(english)) {
      expect(placeholders(chinese[key] as string), key).toEqual(placeholders(english[key] as string));
    }
  });

  it('the Chinese table is really translated', () => {
    const same = Object.keys(english).filter(
      (key) => english[key] === chinese[key] && /[a-z]{3}/.test(english[key] as string),
    );
    // Language names, key names and a tool's name (pip) stay as they are.
    expect(same.sort()).toEqual([
      'compareJavaScript',
      'comparePython',
      'runner.moduleMissingLink',
      'searchShortcutHint',
    ]);
  });

  it("the spec's wording is used where it names a string", () => {
    expect(en.copied).toBe('Copied');
    expect(en.onThisPage).toBe('On this page');
    expect(en.crashTitle).toBe('This page crashed.');
    expect(en.crashTryAgain).toBe('Try again');
    expect(en.chunkRetry).toBe('Retry');
    expect(en.searchNoResults).toBe('No results');
    expect(en.searchPageNoDocuments).toBe('No documents were found');
    expect(en.searchSeeAll).toBe('See all results');
    expect(en.notFoundTitle).toBe('Page Not Found');
    expect(en.notFoundBody).toBe('We could not find what you were looking for.');
  });

  it('reading time has singular and plural forms', () => {
    expect(plural(en.readingTime, 1, 'en')).toBe('One min read');
    expect(plural(en.readingTime, 2, 'en')).toBe('2 min read');
    expect(plural(zhCn.readingTime, 1, 'zh-CN')).toBe('阅读需 1 分钟');
    expect(plural(zhCn.readingTime, 7, 'zh-CN')).toBe('阅读需 7 分钟');
    expect(plural(en.docCount, 1, 'en')).toBe('One chapter');
    expect(plural(en.docCount, 40, 'en')).toBe('40 chapters');
  });

  it('stringsFor falls back to English for an unknown locale', () => {
    expect(stringsFor('zh-cn')).toBe(zhCn);
    expect(stringsFor('fr')).toBe(en);
  });
});
