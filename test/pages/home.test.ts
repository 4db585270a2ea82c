import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExample } from '../../src/check/run-example.js';
import { Builder } from '../../src/generator/build.js';
import { HOME_EXAMPLE } from '../../src/pages/home.js';
import { chapter, createFixtureBook, type FixtureBook } from '../fixtures/fixture-book.js';

describe('the home page example', () => {
  let empty: string;
  beforeAll(async () => {
    empty = await mkdtemp(path.join(os.tmpdir(), 'pybook-home-'));
  });
  afterAll(() => rm(empty, { recursive: true, force: true }));

  it.each(['javascript', 'python'] as const)(
    '%s prints the output the page shows, like every example of the book',
    async (lang) => {
      const { code, output } = HOME_EXAMPLE[lang];
      expect(await runExample({ lang, code, output, line: 1 }, empty)).toEqual({ ok: true });
    },
  );
});

describe('the home page data', () => {
  let book: FixtureBook;
  beforeAll(async () => {
    book = await createFixtureBook({
      chapters: {
        en: {
          intro: chapter('Intro', 'Hi.', { description: 'Why this book.' }),
          lists: chapter('Lists', 'Lists.', { description: 'Arrays become lists.' }),
          shop: chapter('A shop', 'Build it.', { description: 'A small web API.' }),
        },
        'zh-cn': { intro: chapter('简介', '你好。', { description: '为什么写这本书。' }) },
      },
      sidebar: [
        { type: 'category', label: { en: 'Start', 'zh-cn': '开始' }, items: ['intro'] },
        {
          type: 'category',
          label: { en: 'Part 1', 'zh-cn': '第一部分' },
          items: [{ type: 'category', label: { en: 'Data', 'zh-cn': '数据' }, items: ['lists'] }],
        },
        { type: 'category', label: { en: 'Projects', 'zh-cn': '项目' }, items: ['shop'] },
      ],
      config: { home: { cover: { en: 'img/cover.svg', 'zh-cn': 'img/cover-zh.svg' }, projects: ['shop'] } },
    });
  });
  afterAll(() => book.remove());

  it('lists each top-level category as a part with its chapters (nested ones too), the projects and the cover per locale', async () => {
    const { pages } = await new Builder({ configPath: book.configPath }).build();
    const home = (locale: string) => pages.find((p) => p.kind === 'home' && p.locale === locale)!.home!;
    expect(home('en').parts.map((p) => [p.label, p.chapters.map((c) => c.title)])).toEqual([
      ['Start', ['Intro']],
      ['Part 1', ['Lists']],
      ['Projects', ['A shop']],
    ]);
    expect(home('en').projects).toEqual([
      { title: 'A shop', href: '/fixture-guide/shop/', description: 'A small web API.' },
    ]);
    expect(home('zh-cn').parts[0]).toEqual({
      label: '开始',
      chapters: [{ title: '简介', href: '/fixture-guide/zh-cn/intro/', description: '为什么写这本书。' }],
    });
    expect([home('en').cover, home('zh-cn').cover]).toEqual(['img/cover.svg', 'img/cover-zh.svg']);
  });

  it('a project the sidebar does not list is a config error naming the field', async () => {
    const { parseConfig } = await import('../../src/config/load-config.js');
    const { readFileSync } = await import('node:fs');
    const raw = JSON.parse(readFileSync(book.configPath, 'utf8')) as { home: { projects: string[] } };
    raw.home.projects = ['shop', 'missing'];
    expect(() => parseConfig(JSON.stringify(raw), book.configPath)).toThrow(
      'field "home.projects[1]" is "missing", which the sidebar does not list',
    );
  });
});
