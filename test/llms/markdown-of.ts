import { localesOf } from '../../src/book/load-book.js';
import { pageRoute } from '../../src/book/routes.js';
import { compileChapter } from '../../src/markdown/compile.js';
import { chapter, FIXTURE_SITE_URL } from '../fixtures/fixture-book.js';
import { memoryConfig, TEST_FILE } from '../fixtures/render.js';

/** A chapter's Markdown as the build writes it (src/llms/), compiled in memory with the fixture book's config. */
export function markdownOfChapter(source: string, locale = 'en', slug = 'test-chapter'): string {
  const locales = localesOf(memoryConfig);
  const info = locales.find((l) => l.code === locale)!;
  const compiled = compileChapter(source, TEST_FILE, {
    slug,
    basePath: memoryConfig.basePath,
    localePaths: locales.filter((l) => !l.isDefault).map((l) => l.path),
    routeFor: (target) => pageRoute(memoryConfig.basePath, info, target),
    markdown: { siteUrl: FIXTURE_SITE_URL, basePath: memoryConfig.basePath, locale: info },
  });
  return compiled.markdown!;
}

/** The Markdown of a chapter body (front matter added: title "Test chapter"). */
export function markdownOf(body: string, locale = 'en'): string {
  return markdownOfChapter(chapter('Test chapter', body), locale);
}
