import type { BookModel, LocaleInfo } from '../shared/model/book.js';
import { notFoundFile, outputFileFor, pageRoute } from '../book/routes.js';
import { localize, localizeKeywords } from '../shared/model/config.js';
import { stringsFor } from '../shared/i18n/index.js';
import type { CompiledChapter } from '../shared/model/chapter.js';
import { homeData } from './home.js';
import { markdownRouteOf } from '../llms/paths.js';
import { buildSidebar, categoryTrail, flattenSidebar } from '../shared/model/sidebar.js';
import type { Alternate, PageModel, SiteData } from '../shared/model/page.js';

/** Compiled chapters by locale code, then slug. */
export type CompiledBook = Record<string, Record<string, CompiledChapter>>;

export interface AssembledSite {
  sites: Record<string, SiteData>;
  pages: PageModel[];
}

const WORDS_PER_MINUTE = 200;

/** Turns the book model and its compiled chapters into one page model per route. */
export function assembleSite(book: BookModel, compiled: CompiledBook): AssembledSite {
  const { config } = book;
  const sites: Record<string, SiteData> = {};
  const pages: PageModel[] = [];

  for (const locale of book.locales) {
    const strings = stringsFor(locale.code);
    const siteTitle = localize(config.title, locale.code, config.defaultLocale);
    const route = (slug: string) => pageRoute(config.basePath, locale, slug);
    const alternates = (slug: string): Alternate[] =>
      book.locales.map((l) => ({
        locale: l.code,
        htmlLang: l.htmlLang,
        label: l.label,
        href: pageRoute(config.basePath, l, slug),
      }));
    const chapters = compiled[locale.code];
    const sidebar = buildSidebar(
      config,
      locale.code,
      { type: 'link', label: strings.home, href: route(''), slug: '' },
      (slug) => ({
        label: chapters[slug].frontMatter.sidebar_label ?? chapters[slug].frontMatter.title,
        href: route(slug),
        unlisted: chapters[slug].frontMatter.unlisted === true,
      }),
    );
    const site: SiteData = {
      title: siteTitle,
      tagline: localize(config.tagline, locale.code, config.defaultLocale),
      author: config.author,
      basePath: config.basePath,
      siteVersion: config.siteVersion,
      repositoryUrl: config.repositoryUrl,
      locale,
      locales: book.locales,
      homeRoute: route(''),
      searchRoute: route('search'),
      strings,
      sidebar,
      announcement: config.announcementBar && {
        id: config.announcementBar.id,
        content: localize(config.announcementBar.content, locale.code, config.defaultLocale),
        closable: config.announcementBar.closable,
      },
      footerCopyright: localize(config.footer.copyright, locale.code, config.defaultLocale),
      hideNavbarOnScroll: config.navbar.hideOnScroll,
      titleDelimiter: config.titleDelimiter,
      search: {
        maxResults: config.search.maxResults,
        snippetLength: config.search.snippetLength,
        highlightOnTarget: config.search.highlightOnTarget,
        indexUrl: config.search.indexUrl ?? `${route('')}search-index.json`,
        indexHash: '',
      },
      lazyModules: {},
      routes: {},
      version: {
        name: 'current',
        label: strings.versionLabelCurrent,
        path: config.basePath,
        mainDocId: 'index',
        isLast: true,
      },
    };
    sites[locale.code] = site;
    const documentTitle = (title: string) => (title ? `${title} ${config.titleDelimiter} ${siteTitle}` : siteTitle);
    const base = (slug: string, kind: PageModel['kind'], title: string): PageModel => ({
      kind,
      locale: locale.code,
      slug,
      route: route(slug),
      outputFile: outputFileFor(config.basePath, route(slug)),
      title,
      documentTitle: documentTitle(title),
      description: site.tagline,
      keywords: localizeKeywords(config.keywords, locale.code, config.defaultLocale),
      toc: [],
      breadcrumbs: [],
      unlisted: false,
      fallback: false,
      alternates: alternates(slug),
      headings: [],
      links: [],
      sections: [],
      warnings: [],
    });

    pages.push({ ...base('', 'home', ''), title: siteTitle, home: homeData(config, locale.code, sidebar, chapters) });
    pages.push(base('search', 'search', strings.searchPageTitle));
    pages.push({
      ...base('404', 'notFound', strings.notFoundTitle),
      route: `${route('')}404.html`,
      outputFile: notFoundFile(locale),
      alternates: [],
    });

    const order = flattenSidebar(sidebar);
    for (const source of book.chapters[locale.code]) {
      pages.push(
        chapterPage(book, locale, source.slug, chapters[source.slug], {
          base: base(source.slug, 'chapter', chapters[source.slug].frontMatter.title),
          order,
          sidebarTrail: categoryTrail(sidebar, source.slug),
          homeLabel: strings.home,
          homeHref: route(''),
          editUrl: config.editUrlBase + source.relativePath,
          fallback: source.fallback,
          sourceFile: source.file,
        }),
      );
    }
  }
  return { sites, pages };
}

interface ChapterContext {
  base: PageModel;
  order: { slug: string; label: string; href: string }[];
  sidebarTrail?: { label: string; href: string }[];
  homeLabel: string;
  homeHref: string;
  editUrl: string;
  fallback: boolean;
  sourceFile: string;
}

function chapterPage(
  book: BookModel,
  _locale: LocaleInfo,
  slug: string,
  chapter: CompiledChapter,
  ctx: ChapterContext,
): PageModel {
  const { minHeadingLevel, maxHeadingLevel } = book.config.tableOfContents;
  const fm = chapter.frontMatter;
  const position = ctx.order.findIndex((entry) => entry.slug === slug);
  const unlisted = fm.unlisted === true;
  const neighbour = (i: number) =>
    !unlisted && i >= 0 && i < ctx.order.length ? { label: ctx.order[i].label, href: ctx.order[i].href } : undefined;
  return {
    ...ctx.base,
    description: fm.description ?? ctx.base.description,
    keywords: fm.keywords ?? [],
    toc: chapter.headings
      .filter((h) => h.depth >= minHeadingLevel && h.depth <= maxHeadingLevel)
      .map(({ id, text, depth }) => ({ id, text, depth })),
    breadcrumbs: [
      { label: ctx.homeLabel, href: ctx.homeHref },
      ...(ctx.sidebarTrail ?? []),
      { label: fm.sidebar_label ?? fm.title, href: '' },
    ],
    previous: position > 0 ? neighbour(position - 1) : undefined,
    next: position >= 0 ? neighbour(position + 1) : undefined,
    editUrl: ctx.editUrl,
    ...(chapter.markdown !== undefined ? { markdownUrl: markdownRouteOf(ctx.base.route) } : {}),
    readingMinutes: Math.max(1, Math.round(chapter.wordCount / WORDS_PER_MINUTE)),
    unlisted,
    fallback: ctx.fallback,
    sourceFile: ctx.sourceFile,
    headings: chapter.headings,
    links: chapter.links,
    sections: chapter.sections,
    warnings: chapter.warnings,
    hast: chapter.hast,
  };
}
