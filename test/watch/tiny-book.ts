/**
 * A three-chapter book (alpha, beta, gamma; en and zh-cn) in a temporary folder, with its own
 * book.config.json derived from the real one, for watch-mode tests that edit, break, add and
 * delete chapters without touching book/.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const realConfig = fileURLToPath(new URL('../../book.config.json', import.meta.url));

export interface TinyBook {
  dir: string;
  configPath: string;
  /** Path of a chapter's MDX file. */
  file(locale: 'en' | 'zh-cn', slug: string): string;
  /** Rewrites the config's sidebar (one category) and optionally the book title (both languages) and other fields. */
  writeConfig(slugs: string[], title?: string, fields?: Record<string, unknown>): void;
}

const TITLES: Record<string, [string, string]> = {
  alpha: ['Alpha chapter', '阿尔法章节'],
  beta: ['Beta chapter', '贝塔章节'],
  gamma: ['Gamma chapter', '伽马章节'],
};

export function chapterText(locale: 'en' | 'zh-cn', slug: string, title: string, paragraphs = 3): string {
  const body: string[] = [];
  for (let i = 1; i <= paragraphs; i += 1) {
    body.push(
      locale === 'en'
        ? `Paragraph ${i} of ${slug}: a Python \`list\` is much like a JavaScript array, and [beta](./beta.mdx) says more.`
        : `${slug} 的第 ${i} 段：Python 的 \`list\` 很像 JavaScript 的数组，[贝塔](./beta.mdx) 有更多内容。`,
    );
  }
  return `---\ntitle: ${title}\n---\n\n## ${locale === 'en' ? 'First section' : '第一节 {#first-section}'}\n\n${body.join('\n\n')}\n`;
}

export function createTinyBook(): TinyBook {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pybook-watch-test-'));
  const file = (locale: 'en' | 'zh-cn', slug: string) => path.join(dir, 'book', locale, `${slug}.mdx`);
  for (const locale of ['en', 'zh-cn'] as const) {
    mkdirSync(path.join(dir, 'book', locale), { recursive: true });
    for (const [slug, titles] of Object.entries(TITLES)) {
      // alpha is long enough to scroll, for the scroll-position test.
      writeFileSync(
        file(locale, slug),
        chapterText(locale, slug, titles[locale === 'en' ? 0 : 1], slug === 'alpha' ? 80 : 3),
      );
    }
  }
  mkdirSync(path.join(dir, 'book', 'static'), { recursive: true });
  const configPath = path.join(dir, 'book.config.json');
  const writeConfig = (slugs: string[], title = 'Tiny watch book', fields: Record<string, unknown> = {}) => {
    const config = JSON.parse(readFileSync(realConfig, 'utf8')) as Record<string, unknown>;
    delete config.$schema;
    // The real book's home page names its project chapters, which this book does not have.
    delete config.home;
    Object.assign(config, {
      title: { en: title, 'zh-cn': `${title}（中文）` },
      contentDir: 'book',
      staticDir: 'book/static',
      sidebar: [{ type: 'category', label: { en: 'Basics', 'zh-cn': '基础' }, items: slugs }],
      ...fields,
    });
    writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
  };
  writeConfig(Object.keys(TITLES));
  return { dir, configPath, file, writeConfig };
}
