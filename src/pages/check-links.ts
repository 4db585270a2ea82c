import path from 'node:path';
import { BookError } from '../core/errors.js';
import type { Warning } from '../shared/model/chapter.js';
import type { PageModel } from '../shared/model/page.js';

export interface LinkReport {
  errors: BookError[];
  warnings: Warning[];
}

/** Where a file link of a page points, relative to the site root ('img/cover.svg'). */
export function sitePathOf(written: string, pageRoute: string, basePath: string): string {
  let pathname = new URL(written, `http://site.invalid${pageRoute}`).pathname;
  try {
    pathname = decodeURIComponent(pathname);
  } catch {
    // keep it encoded: it will not match a file, and the error shows what was written
  }
  return pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname.replace(/^\//, '');
}

/**
 * Checks every link of every page against the page models and the site's files: a link to a page
 * or a file (image, download) that does not exist is an error (the build fails listing all of
 * them); a missing #anchor is a warning. `fileExists` answers for site-relative paths.
 */
export function checkLinks(
  pages: PageModel[],
  fileExists: (sitePath: string) => boolean = () => true,
  basePath = '/',
): LinkReport {
  const byLocale = new Map<string, Map<string, PageModel>>();
  for (const page of pages) {
    if (!byLocale.has(page.locale)) byLocale.set(page.locale, new Map());
    byLocale.get(page.locale)!.set(page.slug, page);
  }
  const errors: BookError[] = [];
  const warnings: Warning[] = [];
  // A chapter that falls back to the default locale is the same file on two pages: report its
  // links once, not once per locale.
  const reported = new Set<string>();
  const firstTime = (where: { file: string; line: number; column: number }, message: string) => {
    const key = `${where.file}:${where.line}:${where.column}:${message}`;
    if (reported.has(key)) return false;
    reported.add(key);
    return true;
  };
  for (const page of pages) {
    const file = page.sourceFile ? path.relative(process.cwd(), page.sourceFile) : page.route;
    for (const link of page.links) {
      if (link.staticFile !== undefined) {
        const sitePath = sitePathOf(link.staticFile, page.route, basePath);
        const message = `missing file "${link.written}": there is no ${sitePath} in the static folder`;
        if (!fileExists(sitePath) && firstTime({ file, line: link.line, column: link.column }, message))
          errors.push(new BookError(message, { file, line: link.line, column: link.column }));
        continue;
      }
      const target = byLocale.get(page.locale)?.get(link.targetSlug ?? page.slug);
      const where = { file, line: link.line, column: link.column };
      if (!target || target.kind === 'notFound') {
        const message = `broken link "${link.written}": there is no chapter "${link.targetSlug}"`;
        if (firstTime(where, message)) errors.push(new BookError(message, where));
        continue;
      }
      if (link.anchor && target.kind === 'chapter' && !target.headings.some((h) => h.id === link.anchor)) {
        const message = `broken anchor "${link.written}": "${target.slug || 'home'}" has no heading with id "${link.anchor}"`;
        if (firstTime(where, message)) warnings.push({ ...where, message });
      }
    }
  }
  return { errors, warnings };
}

/**
 * Two pages on one route: an error (one page would silently replace the other, in every language).
 * Routes are compared as case-insensitive hosts compare them.
 */
export function findDuplicateRoutes(pages: PageModel[]): BookError[] {
  const seen = new Map<string, PageModel>();
  const errors: BookError[] = [];
  for (const page of pages) {
    const route = page.route.toLowerCase();
    const other = seen.get(route);
    if (other)
      errors.push(
        new BookError(`duplicate route ${page.route} (also produced by ${other.sourceFile ?? other.kind})`, {
          file: page.sourceFile ?? page.route,
        }),
      );
    seen.set(route, page);
  }
  return errors;
}
