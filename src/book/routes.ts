import type { LocaleInfo } from '../shared/model/book.js';

/** URL of a page: '' is the locale's home, 'search' the search page, otherwise a chapter slug. */
export function pageRoute(basePath: string, locale: LocaleInfo, slug: string): string {
  return `${basePath}${locale.urlPrefix}${slug ? `${slug}/` : ''}`;
}

/** File (relative to the output folder) that serves a route: clean URLs via folder/index.html. */
export function outputFileFor(basePath: string, route: string): string {
  const rest = route.slice(basePath.length);
  return `${rest}index.html`;
}

export function notFoundFile(locale: LocaleInfo): string {
  return `${locale.urlPrefix}404.html`;
}
