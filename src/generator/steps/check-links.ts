import path from 'node:path';
import type { BookConfig } from '../../shared/model/config.js';
import type { Warning } from '../../shared/model/chapter.js';
import type { PageModel } from '../../shared/model/page.js';
import { checkLinks, findDuplicateRoutes } from '../../pages/check-links.js';
import { BookErrors } from '../../core/errors.js';
import { staticFilesOf } from '../../output/static-files.js';

/** Files every build writes that a chapter may link to. */
const GENERATED_FILES = new Set(['sitemap.xml', 'robots.txt']);

/**
 * The build's step that checks the links: every broken link and duplicate route of the book at
 * once (thrown, as one error), else the folders of static files and the warnings of the pages and
 * their links.
 */
export function checkBookLinks(config: BookConfig, pages: PageModel[]): { staticDirs: string[]; warnings: Warning[] } {
  const staticDirs = [path.resolve(config.rootDir, config.staticDir)];
  const staticFiles = staticFilesOf(staticDirs, config.rootDir);
  const links = checkLinks(
    pages,
    (sitePath) => staticFiles.has(sitePath) || GENERATED_FILES.has(sitePath),
    config.basePath,
  );
  const errors = [...findDuplicateRoutes(pages), ...links.errors];
  if (errors.length) throw new BookErrors(errors);
  return { staticDirs, warnings: [...pages.flatMap((p) => p.warnings), ...links.warnings] };
}
