import { pageRoute } from '../book/routes.js';
import type { LocaleInfo } from '../shared/model/book.js';
import { compileChapter } from '../markdown/compile.js';
import type { CompiledChapter } from '../shared/model/chapter.js';
import { BookError } from '../core/errors.js';

/** One chapter to compile, in plain data (it is also what the disk cache key is made of). */
export interface CompileJob {
  key: string;
  source: string;
  file: string;
  slug: string;
  basePath: string;
  localePaths: string[];
  locale: LocaleInfo;
  /** Set when the chapter is also written as Markdown (src/llms/): the site's origin, which its links take. */
  markdown?: { siteUrl: string };
}

export type CompileOutcome = { key: string; chapter: CompiledChapter } | { key: string; error: BookError };

/** Compiles a chapter; a mistake in it becomes an outcome, so that every failing chapter is reported at once. */
export function runCompileJob(job: CompileJob): CompileOutcome {
  try {
    const chapter = compileChapter(job.source, job.file, {
      slug: job.slug,
      basePath: job.basePath,
      localePaths: job.localePaths,
      routeFor: (slug) => pageRoute(job.basePath, job.locale, slug),
      ...(job.markdown
        ? { markdown: { siteUrl: job.markdown.siteUrl, basePath: job.basePath, locale: job.locale } }
        : {}),
    });
    return { key: job.key, chapter };
  } catch (error) {
    if (error instanceof BookError) return { key: job.key, error };
    throw error;
  }
}
