import type { BookConfig } from '../config/types.js';
import { localize } from '../config/types.js';
import { highlightToHtml } from '../markdown/highlight/index.js';
import { longestLineWidth } from '../markdown/to-hast-handlers.js';
import type { CompiledChapter } from '../markdown/types.js';
import { flattenSidebar } from './sidebar.js';
import type { SidebarEntry } from './types.js';

export interface HomeChapter { title: string; href: string; description: string }
export interface HomeExampleBlock { lang: string; codeHtml: string; width: number; output: string }

/** What the home page shows besides the hero: the book's parts, its projects and a first comparison. */
export interface HomeData {
  cover: string;
  parts: Array<{ label: string; chapters: HomeChapter[] }>;
  projects: HomeChapter[];
  example: [HomeExampleBlock, HomeExampleBlock];
}

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
export function homeData(config: BookConfig, locale: string, sidebar: SidebarEntry[], chapters: Record<string, CompiledChapter>): HomeData {
  const chapter = (slug: string, href: string): HomeChapter => ({
    title: chapters[slug].frontMatter.title,
    href,
    description: chapters[slug].frontMatter.description ?? '',
  });
  const parts = sidebar.flatMap((entry) => (entry.type === 'category'
    ? [{ label: entry.label, chapters: flattenSidebar(entry.items).map((link) => chapter(link.slug!, link.href)) }]
    : []));
  const links = new Map(flattenSidebar(sidebar).map((link) => [link.slug, link.href]));
  const projects = (config.home?.projects ?? []).filter((slug) => links.has(slug)).map((slug) => chapter(slug, links.get(slug)!));
  const cover = config.home?.cover ? localize(config.home.cover, locale, config.defaultLocale) : 'img/cover.svg';
  return { cover, parts, projects, example: [block('javascript'), block('python')] };
}
