import type { Definition, Image, Link } from 'mdast';
import { pageRoute } from '../book/routes.js';
import type { LocaleInfo } from '../shared/model/book.js';
import { chapterMarkdownRoute, LLMS_INDEX, llmsRoute } from './paths.js';

/** What a chapter's Markdown needs to know of the site to write its links. */
export interface MarkdownSite {
  /** The site's origin (book.config.json siteUrl): the Markdown is read away from the site, so its URLs are absolute. */
  siteUrl: string;
  basePath: string;
  locale: LocaleInfo;
}

/** The one page of a locale that is neither the home page nor a chapter (src/pages/assemble.ts). */
const SEARCH_PAGE = 'search';
const EXTERNAL = /^[a-z][a-z0-9+.-]*:|^\/\//i;

/**
 * The URL a link, image or definition of chapter `slug` has in the Markdown. Every URL is
 * absolute, so that a copied page or llms-full.txt still leads somewhere: a link to a chapter
 * leads to that chapter's Markdown (with its anchor), a link to the home page to the locale's
 * llms.txt (the Markdown's home), and anything else (the search page, images, files) to what
 * the page itself links to.
 */
export function markdownUrlOf(node: Link | Image | Definition, slug: string, site: MarkdownSite): string {
  const target = node.type === 'link' ? node.data?.page : undefined;
  if (target && target.slug !== SEARCH_PAGE) {
    if (target.slug === '') return site.siteUrl + llmsRoute(site.basePath, site.locale, LLMS_INDEX);
    const anchor = target.anchor !== undefined ? `#${encodeURIComponent(target.anchor)}` : '';
    return site.siteUrl + chapterMarkdownRoute(site.basePath, site.locale, target.slug) + anchor;
  }
  if (EXTERNAL.test(node.url)) return node.url;
  // A relative URL is relative to the page (`/base/slug/`), which the Markdown is not beside.
  return new URL(node.url, site.siteUrl + pageRoute(site.basePath, site.locale, slug)).href;
}
