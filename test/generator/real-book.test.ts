import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { load as parseYaml } from 'js-yaml';
import { sidebarSlugs } from '../../src/book/load-book.js';
import { loadConfig } from '../../src/config/load-config.js';
import { en } from '../../src/shared/i18n/en.js';
import { zhCn } from '../../src/shared/i18n/zh-cn.js';

/**
 * The real book as the global setup built it (PYBOOK_TEST_SITE): every route of both languages
 * exists and has the title its chapter file declares.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const site = process.env.PYBOOK_TEST_SITE ?? path.join(root, '.test-build', 'site');
const config = loadConfig(path.join(root, 'book.config.json'));

const SPEC_SLUGS = [
  'about-the-book',
  'afterword',
  'anonymous-functions',
  'arithmetic-operation',
  'basic-types',
  'class-and-instance',
  'comprehension-expressions',
  'create-and-import-of-modules',
  'create-and-import-packages',
  'custom-exception-classes',
  'datetime-module',
  'definition-and-assignment-of-variables',
  'definition-and-invocation-of-functions',
  'dictionary',
  'for-and-while-statement',
  'hello-world',
  'how-to-use-the-book',
  'if-statement',
  'json-module',
  'lifelong-learning',
  'lists-and-tuples',
  'math-module',
  'naming-rules-for-variables',
  'os-module',
  'pip',
  'poetry',
  'random-module',
  're-module',
  'read-and-write-files',
  'references',
  'set',
  'setup-environment',
  'task-book-store',
  'task-list-files',
  'task-top-50-in-github',
  'third-party-packages',
  'try-except-statements',
  'type-conversion',
  'typing-annotation',
  'venv-and-conda-and-condaip',
  // Book 1.1 (issue 14) adds these to the spec's list.
  'async-and-await',
  'iterators-and-generators',
  'logging-and-debugging',
  'testing-with-pytest',
  'uv',
  // Book 1.3 (issue 41) adds these.
  'code-quality-tools',
  'data-modelling',
  'decorators-and-context-managers',
].sort();

/** Chapters that teach nothing to practise: the book's front and back matter. */
const FRONT_AND_BACK_MATTER = [
  'about-the-book',
  'how-to-use-the-book',
  'afterword',
  'lifelong-learning',
  'references',
  'third-party-packages',
];

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const read = (file: string) => readFileSync(path.join(site, file), 'utf8');
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

function chapterTitle(localeFolder: string, slug: string): string {
  const own = path.join(root, 'book', localeFolder, `${slug}.mdx`);
  const file = existsSync(own) ? own : path.join(root, 'book', 'en', `${slug}.mdx`);
  const frontMatter = /^---\n([\s\S]*?)\n---/.exec(readFileSync(file, 'utf8'))![1];
  return (parseYaml(frontMatter) as { title: string }).title;
}

const locales = [
  { code: 'en', prefix: '', siteTitle: (config.title as Record<string, string>).en, strings: en, htmlLang: 'en' },
  {
    code: 'zh-cn',
    prefix: 'zh-cn/',
    siteTitle: (config.title as Record<string, string>)['zh-cn'],
    strings: zhCn,
    htmlLang: 'zh-CN',
  },
];

describe('the real book', () => {
  it('the sidebar lists exactly the chapters of the spec and of Book 1.1', () => {
    expect([...sidebarSlugs(config.sidebar)].sort()).toEqual(SPEC_SLUGS);
  });

  describe.each(locales)('$code', ({ code, prefix, siteTitle, strings, htmlLang }) => {
    it('every chapter route exists with "Chapter | Site title"', () => {
      for (const slug of SPEC_SLUGS) {
        const file = `${prefix}${slug}/index.html`;
        expect(existsSync(path.join(site, file)), file).toBe(true);
        const html = read(file);
        expect(titleOf(html), file).toBe(escapeHtml(`${chapterTitle(code, slug)} | ${siteTitle}`));
        expect(html, file).toContain(`<html lang="${htmlLang}"`);
        expect(html, file).toContain(
          `<link rel="canonical" href="${config.siteUrl}${config.basePath}${prefix}${slug}/">`,
        );
      }
    });

    it('the home, search and not-found pages exist with their titles', () => {
      expect(titleOf(read(`${prefix}index.html`))).toBe(escapeHtml(siteTitle));
      expect(titleOf(read(`${prefix}search/index.html`))).toBe(escapeHtml(`${strings.searchPageTitle} | ${siteTitle}`));
      expect(titleOf(read(`${prefix}404.html`))).toBe(escapeHtml(`${strings.notFoundTitle} | ${siteTitle}`));
    });

    it('the search index exists', () => {
      expect(existsSync(path.join(site, `${prefix}search-index.json`))).toBe(true);
    });
  });

  it('no Chinese chapter is missing (no fallback banner in the Chinese site)', () => {
    for (const slug of SPEC_SLUGS) expect(read(`zh-cn/${slug}/index.html`), slug).not.toContain('fallback-banner');
  });

  it('the sitemap lists every chapter and home page of both languages, weekly with priority 0.5', () => {
    const sitemap = read('sitemap.xml');
    const locs = [...sitemap.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    const base = `${config.siteUrl}${config.basePath}`;
    const expected = locales.flatMap(({ prefix }) => [
      `${base}${prefix}`,
      ...SPEC_SLUGS.map((slug) => `${base}${prefix}${slug}/`),
    ]);
    expect(locs.sort()).toEqual(expected.sort());
    expect(sitemap.match(/<changefreq>weekly<\/changefreq>/g)).toHaveLength(expected.length);
    expect(sitemap.match(/<priority>0.5<\/priority>/g)).toHaveLength(expected.length);
  });

  it('every chapter that teaches ends with an exercise, and its page offers Check on the starter code, in both languages', () => {
    const teaching = SPEC_SLUGS.filter((slug) => !FRONT_AND_BACK_MATTER.includes(slug));
    for (const localeFolder of ['en', 'zh-cn']) {
      for (const slug of SPEC_SLUGS) {
        const source = readFileSync(path.join(root, 'book', localeFolder, `${slug}.mdx`), 'utf8');
        const html = read(path.join(localeFolder === 'en' ? '' : localeFolder, slug, 'index.html'));
        const checks = html.match(/data-code-action="check"/g)?.length ?? 0;
        expect({ slug, localeFolder, exercise: source.includes('exercise="starter"') }).toEqual({
          slug,
          localeFolder,
          exercise: teaching.includes(slug),
        });
        expect({ slug, localeFolder, checks }).toEqual({ slug, localeFolder, checks: teaching.includes(slug) ? 1 : 0 });
      }
    }
  });
});
