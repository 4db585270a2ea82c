import { afterEach, describe, expect, it } from 'vitest';
import { loadBook } from '../../src/book/load-book.js';
import { loadConfig } from '../../src/config/load-config.js';
import { BookError, BookErrors } from '../../src/core/errors.js';
import { chapter, createFixtureBook, type FixtureBook } from '../fixtures/fixture-book.js';

let book: FixtureBook | undefined;
afterEach(async () => {
  await book?.remove();
  book = undefined;
});

const load = async (options: Parameters<typeof createFixtureBook>[0]) => {
  book = await createFixtureBook(options);
  return () => loadBook(loadConfig(book!.configPath));
};

describe('loadBook', () => {
  it('orders chapters by the sidebar and appends files it does not list', async () => {
    const model = (
      await load({
        chapters: {
          en: { second: chapter('Second'), first: chapter('First'), extra: chapter('Extra', 'x', { unlisted: true }) },
        },
        sidebar: ['first', 'second'],
      })
    )();
    expect(model.slugs).toEqual(['first', 'second', 'extra']);
    expect(model.locales.map((l) => [l.code, l.urlPrefix])).toEqual([
      ['en', ''],
      ['zh-cn', 'zh-cn/'],
    ]);
  });

  it('a chapter the sidebar names but that does not exist in English is an error', async () => {
    const run = await load({ chapters: { en: { intro: chapter('Intro') } }, sidebar: ['intro', 'ghost'] });
    const error = (() => {
      try {
        run();
      } catch (e) {
        return e as BookError;
      }
      throw new Error('expected an error');
    })();
    expect(error).toBeInstanceOf(BookError);
    expect(error.message).toMatch(/the sidebar names chapter "ghost" but .*book\/en\/ghost\.mdx does not exist/);
    expect(error.position?.file).toBe(book!.configPath);
  });

  it('reports every missing chapter and a slug listed twice', async () => {
    const run = await load({
      chapters: { en: { intro: chapter('Intro') } },
      sidebar: ['intro', 'one', 'two', 'intro'],
    });
    try {
      run();
      throw new Error('expected an error');
    } catch (error) {
      expect(error).toBeInstanceOf(BookErrors);
      const messages = (error as BookErrors).errors.map((e) => e.message);
      expect(messages).toHaveLength(3);
      expect(messages.join('\n')).toContain('"one"');
      expect(messages.join('\n')).toContain('"two"');
      expect(messages.join('\n')).toContain('sidebar lists the chapter "intro" twice');
    }
  });

  it('a chapter missing in Chinese falls back to the English file', async () => {
    const model = (
      await load({
        chapters: { en: { intro: chapter('Intro'), later: chapter('Later') }, 'zh-cn': { intro: chapter('介绍') } },
      })
    )();
    const zh = model.chapters['zh-cn'];
    expect(zh.map((c) => [c.slug, c.fallback, c.relativePath])).toEqual([
      ['intro', false, 'book/zh-cn/intro.mdx'],
      ['later', true, 'book/en/later.mdx'],
    ]);
    expect(zh[1].source).toContain('title: "Later"');
    expect(model.chapters.en.every((c) => !c.fallback)).toBe(true);
  });

  it('a Chinese chapter without an English original is an error', async () => {
    const run = await load({
      chapters: { en: { intro: chapter('Intro') }, 'zh-cn': { intro: chapter('介绍'), orphan: chapter('孤儿') } },
    });
    expect(run).toThrow('chapter "orphan" exists in zh-cn but not in the default locale (en)');
  });
});
