import type { BookConfig } from '../shared/model/config.js';
import { localize } from '../shared/model/config.js';
import { highlightToHtml } from '../markdown/highlight/index.js';
import { longestLineWidth } from '../markdown/to-hast-handlers.js';
import type { CompiledChapter } from '../shared/model/chapter.js';
import { flattenSidebar } from '../shared/model/sidebar.js';
import type { HomeChapter, HomeData, HomeExampleBlock } from '../shared/model/home.js';
import type { SidebarEntry } from '../shared/model/page.js';

/**
 * The comparison on the home page: the book's idea in six lines. Kept here, next to its expected
 * output, and run by the tests like every example of the book (test/pages/home.test.ts).
 */
export const HOME_EXAMPLE = {
  javascript: {
    code: 'const prices = [12.5, 8, 30];\nconst big = prices.filter((p) => p > 10);\nconsole.log(big.length, Math.max(...big));',
    output: '2 30',
  },
  python: {
    code: 'prices = [12.5, 8, 30]\nbig = [p for p in prices if p > 10]\nprint(len(big), max(big))',
    output: '2 30',
  },
};

const block = (lang: 'javascript' | 'python'): HomeExampleBlock => {
  const { code, output } = HOME_EXAMPLE[lang];
  return { lang, codeHtml: highlightToHtml(code, lang, new Set()), width: longestLineWidth(code), output };
};

/** The home page's data for one locale, from the sidebar (parts are its top-level categories) and the chapters' front matter. */
export function homeData(
  config: BookConfig,
  locale: string,
  sidebar: SidebarEntry[],
  chapters: Record<string, CompiledChapter>,
): HomeData {
  const chapter = (slug: string, href: string): HomeChapter => ({
    title: chapters[slug].frontMatter.title,
    href,
    description: chapters[slug].frontMatter.description ?? '',
  });
  const parts = sidebar.flatMap((entry) =>
    entry.type === 'category'
      ? [{ label: entry.label, chapters: flattenSidebar(entry.items).map((link) => chapter(link.slug, link.href)) }]
      : [],
  );
  const links = new Map(flattenSidebar(sidebar).map((link) => [link.slug, link.href]));
  const projects = (config.home?.projects ?? [])
    .filter((slug) => links.has(slug))
    .map((slug) => chapter(slug, links.get(slug)!));
  const cover = config.home?.cover ? localize(config.home.cover, locale, config.defaultLocale) : 'img/cover.svg';
  return { cover, parts, projects, example: [block('javascript'), block('python')] };
}
