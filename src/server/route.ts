import { formatUrlPath, sanitizeQueryForHeader, type ParsedRequestPath } from './resolve-path.js';

/**
 * URL-level routing that needs no disk access: keep visitors inside basePath
 * and send '.html' URLs to their clean form so every page has one address.
 */

export interface RedirectRoute {
  kind: 'redirect';
  status: 301 | 302;
  location: string;
}

export interface SiteRoute {
  kind: 'site';
  /** Segments below basePath, e.g. ['zh-cn', 'dictionary']. */
  relativeSegments: string[];
  trailingSlash: boolean;
  query: string;
}

export type Route = RedirectRoute | SiteRoute;

/** '/python-guide/' -> ['python-guide']; '/' -> []. */
export function basePathSegments(basePath: string): string[] {
  return basePath.split('/').filter((segment) => segment !== '');
}

/** Accepts 'x', '/x', '/x/' and returns the canonical '/x/' form. */
export function normalizeBasePath(basePath: string): string {
  const segments = basePathSegments(basePath);
  return segments.length === 0 ? '/' : `/${segments.join('/')}/`;
}

function startsWithSegments(segments: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= segments.length && prefix.every((segment, index) => segments[index] === segment);
}

function redirect(status: 301 | 302, path: string, query: string): RedirectRoute {
  return { kind: 'redirect', status, location: path + sanitizeQueryForHeader(query) };
}

export function routeRequest(request: ParsedRequestPath, baseSegments: readonly string[]): Route {
  const { segments, trailingSlash, query } = request;
  const basePath = formatUrlPath(baseSegments, true);

  // Crawlers ask for /robots.txt at the origin's root only: answer with the site's own.
  if (segments.length === 1 && segments[0] === 'robots.txt' && baseSegments.length > 0) {
    return { kind: 'site', relativeSegments: ['robots.txt'], trailingSlash: false, query };
  }

  // Temporary (302): the root may one day host something else, e.g. a landing page.
  if (!startsWithSegments(segments, baseSegments)) return redirect(302, basePath, '');

  const relativeSegments = segments.slice(baseSegments.length);
  if (relativeSegments.length === 0 && !trailingSlash && baseSegments.length > 0) {
    return redirect(301, basePath, query);
  }

  const lastSegment = relativeSegments[relativeSegments.length - 1];
  if (!trailingSlash && lastSegment !== undefined && lastSegment.toLowerCase().endsWith('.html')) {
    const cleanSegments =
      lastSegment.toLowerCase() === 'index.html'
        ? segments.slice(0, -1)
        : [...segments.slice(0, -1), lastSegment.slice(0, -'.html'.length)];
    return redirect(301, formatUrlPath(cleanSegments, true), query);
  }

  return { kind: 'site', relativeSegments, trailingSlash, query };
}
