/**
 * The book for AI tools in a build (src/llms/): llms.txt in the llmstxt.org format with the
 * sidebar's chapters in order, llms-full.txt, each chapter's Markdown beside its page, the head
 * link and the chapter header's actions; a rebuild (watch mode) keeps them current; and with
 * "llms": false in book.config.json none of them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Builder, type BuildMode, type BuildResult } from '../../src/generator/build.js';
import { bytesOf } from '../../src/output/copied-file.js';
import {
  chapter,
  createFixtureBook,
  FIXTURE_BASE,
  FIXTURE_SITE_URL,
  type FixtureBook,
} from '../fixtures/fixture-book.js';
import { parseLlmsTxt } from './llms-txt-format.js';

const SITE = FIXTURE_SITE_URL + FIXTURE_BASE;
const chapters = {
  en: {
    intro: chapter('Intro', 'Read [the basics](./basics.mdx#numbers).\n\n## Start', {
      description: 'Where the book starts',
    }),
    basics: chapter('Basics', '## Numbers\n\n```python\nprint(1)\n```\n\n```output\n1\n```'),
    extra: chapter('Extra', 'More.'),
    secret: chapter('Secret page', 'Only with a direct link.', { unlisted: true }),
  },
  'zh-cn': { intro: chapter('介绍', '先读[基础](./basics.mdx)。', { description: '本书从这里开始' }) },
};
const sidebar = [
  { type: 'category' as const, label: { en: 'Start', 'zh-cn': '开始' }, items: ['intro'] },
  {
    type: 'category' as const,
    label: { en: 'Part 1', 'zh-cn': '第一部分' },
    items: [
      { type: 'category' as const, label: { en: 'Basics', 'zh-cn': '基础' }, items: ['basics', 'secret'] },
      'extra',
    ],
  },
];

let fixture: FixtureBook | undefined;
afterEach(async () => {
  await fixture?.remove();
  fixture = undefined;
});

async function build(
  config: Record<string, unknown> = {},
  mode: BuildMode = 'in-memory',
): Promise<{ builder: Builder; result: BuildResult }> {
  fixture = await createFixtureBook({ chapters, sidebar, config });
  const builder = new Builder({ configPath: fixture.configPath, mode });
  return { builder, result: await builder.build() };
}

const text = (result: BuildResult, file: string): string => {
  const contents = result.files.get(file);
  if (contents === undefined) throw new Error(`the build wrote no ${file}`);
  return typeof contents === 'string' ? contents : Buffer.from(bytesOf(contents)).toString('utf8');
};

describe('the book for AI tools in a build', () => {
  it("writes llms.txt as llmstxt.org lays it out: the sidebar's chapters in order, under their categories", async () => {
    const { result } = await build();
    const en = parseLlmsTxt(text(result, 'llms.txt'));
    expect(en.title).toBe('Fixture guide');
    expect(en.summary).toBe('A tagline for tests');
    expect(en.info).toContain(`[llms-full.txt](${SITE}llms-full.txt)`);
    expect(en.info).toContain(`[简体中文](${SITE}zh-cn/llms.txt)`);
    expect(en.sections).toEqual([
      { title: 'Start', links: [{ title: 'Intro', url: `${SITE}intro.md`, description: 'Where the book starts' }] },
      { title: 'Part 1 › Basics', links: [{ title: 'Basics', url: `${SITE}basics.md`, description: undefined }] },
      { title: 'Part 1', links: [{ title: 'Extra', url: `${SITE}extra.md`, description: undefined }] },
    ]);
    // Every link leads to a file of the build.
    for (const { links } of en.sections)
      for (const { url } of links) expect(result.files.has(url.slice(SITE.length)), url).toBe(true);
    const zh = parseLlmsTxt(text(result, 'zh-cn/llms.txt'));
    expect(zh.title).toBe('测试指南');
    expect(zh.info).toContain(`[English](${SITE}llms.txt)`);
    // A missing translation is listed with the default language's text, at the translation's address.
    expect(zh.sections.flatMap((s) => s.links.map((l) => [l.title, l.url]))).toEqual([
      ['介绍', `${SITE}zh-cn/intro.md`],
      ['Basics', `${SITE}zh-cn/basics.md`],
      ['Extra', `${SITE}zh-cn/extra.md`],
    ]);
  });

  it('writes every chapter beside its page, and llms-full.txt with the listed ones in sidebar order', async () => {
    const { result } = await build();
    for (const file of ['intro.md', 'basics.md', 'extra.md', 'secret.md', 'zh-cn/intro.md', 'zh-cn/basics.md'])
      expect(result.files.has(file), file).toBe(true);
    expect(text(result, 'intro.md')).toBe(
      `# Intro\n\n> Where the book starts\n\nRead [the basics](${SITE}basics.md#numbers).\n\n## Start\n`,
    );
    const full = text(result, 'llms-full.txt');
    expect(full).toBe(
      [
        '# Fixture guide\n\n> A tagline for tests\n',
        ...['intro.md', 'basics.md', 'extra.md'].map((f) => text(result, f)),
      ].join('\n'),
    );
    // An unlisted chapter has its Markdown (its page links to it) but is in neither index.
    expect(full).not.toContain('Secret page');
    expect(text(result, 'llms.txt')).not.toContain('secret');
    expect(text(result, 'zh-cn/llms-full.txt')).toContain(`先读[基础](${SITE}zh-cn/basics.md)。`);
  });

  it('links each chapter page to its Markdown in the head and the header; other pages have neither', async () => {
    const { result } = await build();
    const page = text(result, 'intro/index.html');
    expect(page).toContain(`<link rel="alternate" type="text/markdown" href="${SITE}intro.md">`);
    expect(page).toMatch(
      new RegExp(`<a class="markdown-link" href="${FIXTURE_BASE}intro.md" type="text/markdown">View as Markdown</a>`),
    );
    expect(page).toContain('>Copy page as Markdown</button>');
    const zh = text(result, 'zh-cn/intro/index.html');
    expect(zh).toContain(`<link rel="alternate" type="text/markdown" href="${SITE}zh-cn/intro.md">`);
    expect(zh).toContain('>以 Markdown 格式查看</a>');
    for (const other of ['index.html', 'search/index.html', '404.html']) {
      expect(text(result, other)).not.toContain('text/markdown');
      expect(text(result, other)).not.toContain('markdown-actions');
    }
  });

  it('with "llms": false writes none of it: no Markdown, no llms.txt, no head link, no actions', async () => {
    const { result } = await build({ llms: false });
    const names = [...result.files.keys()];
    expect(names.filter((name) => /\.md$|(^|\/)llms(-full)?\.txt$/.test(name))).toEqual([]);
    expect(names).toContain('intro/index.html');
    for (const name of names.filter((n) => n.endsWith('.html') || n.startsWith('assets/pages/'))) {
      const contents = text(result, name);
      expect(contents, name).not.toContain('text/markdown');
      expect(contents, name).not.toContain('markdownUrl');
      expect(contents, name).not.toContain('markdown-actions');
    }
    expect(result.pages.some((page) => page.markdownUrl !== undefined)).toBe(false);
  });

  it('keeps the Markdown current when a chapter changes (watch mode rebuilds)', async () => {
    const { builder, result } = await build({}, 'watch');
    expect(text(result, 'basics.md')).toContain('print(1)');
    await fixture!.writeChapter('en', 'basics', chapter('Basics', '## Numbers\n\n```python\nprint(2)\n```'));
    const next = await builder.build();
    expect(text(next, 'basics.md')).toContain('print(2)');
    expect(text(next, 'llms-full.txt')).toContain('print(2)');
    expect(text(next, 'llms-full.txt')).not.toContain('print(1)');
  });
});
