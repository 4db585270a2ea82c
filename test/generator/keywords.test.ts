import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Builder } from '../../src/generator/build.js';
import { loadConfig } from '../../src/config/load-config.js';
import { chapter, createFixtureBook, type FixtureBook } from '../fixtures/fixture-book.js';
import { textOf } from '../helpers/built-files.js';

/** The home page's meta keywords come from book.config.json: one list, or one per locale. */
let book: FixtureBook;
beforeAll(async () => {
  book = await createFixtureBook({
    chapters: { en: { intro: chapter('Intro', 'Hello.') }, 'zh-cn': { intro: chapter('介绍', '你好。') } },
    config: { keywords: { en: ['Python', 'tutorial'], 'zh-cn': ['Python', '教程'] } },
  });
});
afterAll(() => book.remove());

const keywordsOf = (html: string) => /<meta name="keywords" content="([^"]*)">/.exec(html)?.[1];

describe('keywords per locale', () => {
  it("each language's home page carries its own list", async () => {
    const result = await new Builder({ configPath: book.configPath }).build();
    expect(keywordsOf(textOf(result.files, 'zh-cn/index.html'))).toBe('Python, 教程');
    expect(keywordsOf(textOf(result.files, 'index.html'))).toBe('Python, tutorial');
  });

  it('a list for a locale the book does not have is an error naming the field', async () => {
    const other = await createFixtureBook({
      chapters: { en: { intro: chapter('Intro', 'Hello.') } },
      config: { keywords: { en: ['Python'], fr: ['Python'] } },
    });
    try {
      expect(() => loadConfig(other.configPath)).toThrow(
        /field "keywords\.fr" names a locale that "locales" does not define/,
      );
    } finally {
      await other.remove();
    }
  });
});

describe('chapter keywords per locale', () => {
  it("a zh-cn chapter's meta keywords are its own front matter's (Chinese), not the English chapter's", async () => {
    const other = await createFixtureBook({
      chapters: {
        en: { intro: chapter('Intro', 'Hello.', { keywords: ['lock file', 'pin versions'] }) },
        'zh-cn': { intro: chapter('介绍', '你好。', { keywords: ['锁文件', '固定版本'] }) },
      },
    });
    try {
      const result = await new Builder({ configPath: other.configPath }).build();
      const pages = [...result.files.keys()].filter((file) => /intro(\/index)?\.html$/.test(file));
      const zh = pages.find((file) => file.includes('zh-cn'));
      const en = pages.find((file) => !file.includes('zh-cn'));
      expect(keywordsOf(textOf(result.files, zh!))).toBe('锁文件, 固定版本');
      expect(keywordsOf(textOf(result.files, en!))).toBe('lock file, pin versions');
    } finally {
      await other.remove();
    }
  });
});
