import path from 'node:path';
import type { BookModel } from '../../shared/model/book.js';
import type { CompiledChapter } from '../../shared/model/chapter.js';
import type { CompiledBook } from '../../pages/assemble.js';
import { BookErrors, type BookError } from '../../core/errors.js';
import { codeFingerprint, hashText, type DiskCache } from '../../cache/disk-cache.js';
import type { CompileJob } from '../compile-jobs.js';
import { boundHeapGrowth } from '../heap-growth.js';
import { baseBudgetMs, chapterBudgetMs } from '../compile-budget/budget.js';
import { suspicionOf } from '../compile-budget/suspicious.js';
import { compileChapters, compileThreads, type CompilePlan } from '../compile-pool.js';
import type { BuildMode } from './build-mode.js';

export interface ChapterCompilerOptions {
  /** Watch mode budgets every chapter and keeps its workers; a streamed build bounds its heap (see BuildMode). */
  mode: BuildMode;
  /** Threads that compile chapters (see compile-pool.ts). */
  threads?: number;
  /** A small chapter's compile time budget in ms (see compile-budget/budget.ts). */
  compileBudgetMs?: number;
}

/**
 * The build's step that compiles the chapters: the book in, each locale's compiled chapters out.
 * It keeps the chapters it compiled, by their text, for the next build of the same Builder (watch
 * mode), and reads and writes them in the build cache's `chapters` namespace.
 */
export class ChapterCompiler {
  /** Compiled chapters by locale, file and base path, with the source they were compiled from. */
  private readonly compiled = new Map<string, { source: string; chapter: CompiledChapter }>();
  /** The cache key of each compiled chapter's tree: the content HTML is kept under keys made from it. */
  private readonly treeKeys = new WeakMap<object, string>();
  private compilerKey?: string;

  constructor(
    private readonly disk: DiskCache,
    private readonly options: ChapterCompilerOptions,
  ) {}

  /** The cache key of a compiled chapter's tree (`hast`), when it came from or went to the cache. */
  treeKeyOf(tree: object): string | undefined {
    return this.treeKeys.get(tree);
  }

  /** Compiles every chapter, reusing unchanged ones; reports every failing chapter at once. */
  async compile(book: BookModel): Promise<CompiledBook> {
    const localePaths = book.locales.filter((l) => !l.isDefault).map((l) => l.path);
    const jobs = new Map<string, CompileJob>();
    const keys: Array<{ locale: string; slug: string; key: string }> = [];
    for (const locale of book.locales) {
      for (const chapter of book.chapters[locale.code]) {
        const key = `${locale.code}\0${chapter.file}\0${book.config.basePath}`;
        keys.push({ locale: locale.code, slug: chapter.slug, key });
        // Comparing the text is cheaper than hashing it, and most chapters are the same string.
        if (this.compiled.get(key)?.source === chapter.source) continue;
        const job: CompileJob = {
          key,
          source: chapter.source,
          file: path.relative(process.cwd(), chapter.file),
          slug: chapter.slug,
          basePath: book.config.basePath,
          localePaths,
          locale,
          ...(book.config.llms ? { markdown: { siteUrl: book.config.siteUrl } } : {}),
        };
        const stored = this.disk.enabled
          ? this.disk.readJson<CompiledChapter>('chapters', this.diskKey(job))
          : undefined;
        if (stored) {
          this.compiled.set(key, { source: chapter.source, chapter: stored });
          this.treeKeys.set(stored.hast, this.diskKey(job));
        } else jobs.set(key, job);
      }
    }
    // A one-off build of a large book holds its peak memory near what it keeps alive (see heap-growth.ts).
    if (this.options.mode === 'streamed') boundHeapGrowth(keys.length);
    const errors: BookError[] = [];
    const outcomes = await compileChapters([...jobs.values()], this.plan(jobs.size));
    for (const outcome of outcomes) {
      if ('chapter' in outcome) {
        this.compiled.set(outcome.key, { source: jobs.get(outcome.key)!.source, chapter: outcome.chapter });
        if (this.disk.enabled) {
          this.disk.writeJson('chapters', this.diskKey(jobs.get(outcome.key)!), outcome.chapter);
          this.treeKeys.set(outcome.chapter.hast, this.diskKey(jobs.get(outcome.key)!));
        }
        continue;
      }
      // A chapter that falls back to the default locale is compiled once per locale: report its error once.
      const error = outcome.error;
      if (
        !errors.some(
          (e) =>
            e.message === error.message &&
            e.position?.file === error.position?.file &&
            e.position?.line === error.position?.line,
        )
      )
        errors.push(error);
    }
    if (errors.length) throw errors.length === 1 ? errors[0] : new BookErrors(errors);
    const result: CompiledBook = Object.fromEntries(book.locales.map((l) => [l.code, {}]));
    for (const { locale, slug, key } of keys) result[locale][slug] = this.compiled.get(key)!.chapter;
    const used = new Set(keys.map((k) => k.key));
    for (const key of this.compiled.keys()) if (!used.has(key)) this.compiled.delete(key);
    return result;
  }

  /**
   * Watch mode compiles every chapter off the server's thread, in workers stopped past the
   * chapter's budget: its server must keep answering whatever a chapter does to the parser.
   * `pybook build` budgets only the chapters a cheap pre-check finds suspicious (see suspicious.ts).
   */
  private plan(jobs: number): CompilePlan {
    const watching = this.options.mode === 'watch';
    const base = baseBudgetMs(this.options.compileBudgetMs);
    return {
      threads: compileThreads(jobs, this.options.threads),
      budgetOf: (job) => chapterBudgetMs(base, job.source.length),
      budgeted: (job) => watching || suspicionOf(job.source) !== undefined,
      keepWorkers: watching,
    };
  }

  /**
   * Cache key of a compile job: the source, where it is, the options and the pipeline's own code,
   * with the chapter components' registry (theme/content), whose names the MDX guard allows.
   */
  private diskKey(job: CompileJob): string {
    this.compilerKey ??= codeFingerprint('markdown', 'shared', 'core', 'exercise', 'runner', 'theme/content');
    return hashText(
      this.compilerKey,
      job.file,
      job.source,
      job.basePath,
      job.localePaths.join(','),
      JSON.stringify(job.locale),
      JSON.stringify(job.markdown ?? null),
    ).slice(0, 40);
  }
}
