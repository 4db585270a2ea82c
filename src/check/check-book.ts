import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { loadBook } from '../book/load-book.js';
import { pageRoute } from '../book/routes.js';
import type { BookConfig } from '../config/types.js';
import { compileChapter } from '../markdown/compile.js';
import type { CodeExample } from '../markdown/types.js';
import { isRunnable, runExample } from './run-example.js';

export interface ChapterReport {
  locale: string;
  slug: string;
  file: string;
  ran: number;
  exempt: Array<{ line: number; lang: string; reason: string }>;
  pythonBlocks: number;
  pythonRunnable: number;
  failures: Array<{ line: number; lang: string; message: string }>;
  /** Runnable examples this interpreter cannot run (pytest blocks where pytest is not installed). */
  notRun: Array<{ line: number; lang: string; reason: string }>;
}

export interface PythonInfo { command: string; version?: string; hasPytest: boolean }

/** Which Python a check runs with, and whether it can run pytest blocks. */
export function probePython(command = 'python3'): PythonInfo {
  const result = spawnSync(command, ['-c', 'import sys\nprint(sys.version.split()[0])\ntry:\n    import pytest\n    print("pytest")\nexcept ImportError:\n    pass'], { encoding: 'utf8', timeout: 30_000 });
  const [version, pytest] = (result.stdout ?? '').trim().split('\n');
  return { command, version: result.status === 0 ? version : undefined, hasPytest: pytest === 'pytest' };
}

export interface CheckFilter {
  locales?: string[];
  slugs?: string[];
  jobs?: number;
  /** The Python interpreter to run examples with. */
  python?: string;
  /** Only examples in these languages ('python', 'javascript'). */
  langs?: string[];
}

/** Runs a list of async jobs with at most `limit` at once, keeping result order. */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => { while (next < items.length) { const i = next++; results[i] = await work(items[i]); } };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/** Compiles every (translated) chapter and runs its examples. */
export async function checkBook(config: BookConfig, filter: CheckFilter = {}, onChapter?: (report: ChapterReport) => void): Promise<ChapterReport[]> {
  const book = loadBook(config);
  const fixtures = path.resolve(config.rootDir, config.contentDir, 'fixtures');
  const jobs: Array<{ report: ChapterReport; example: CodeExample }> = [];
  let python: PythonInfo | undefined;
  const reports: ChapterReport[] = [];
  for (const locale of book.locales) {
    if (filter.locales && !filter.locales.includes(locale.code)) continue;
    for (const chapter of book.chapters[locale.code]) {
      if (chapter.fallback || (filter.slugs && !filter.slugs.includes(chapter.slug))) continue;
      const file = path.relative(process.cwd(), chapter.file);
      const compiled = compileChapter(chapter.source, file, {
        slug: chapter.slug, basePath: config.basePath, localePaths: [], routeFor: (slug) => pageRoute(config.basePath, locale, slug),
      });
      const report: ChapterReport = { locale: locale.code, slug: chapter.slug, file, ran: 0, exempt: [], pythonBlocks: 0, pythonRunnable: 0, failures: [], notRun: [] };
      reports.push(report);
      for (const example of compiled.examples) {
        if (example.lang === 'python') report.pythonBlocks++;
        if (example.norun !== undefined && (example.lang === 'python' || example.lang === 'javascript')) {
          report.exempt.push({ line: example.line, lang: example.lang, reason: example.norun });
        }
        if (!isRunnable(example)) continue;
        if (example.lang === 'python') report.pythonRunnable++;
        if (filter.langs && !filter.langs.includes(example.lang)) continue;
        if (example.pytest !== undefined && !(python ??= probePython(filter.python)).hasPytest) {
          report.notRun.push({ line: example.line, lang: example.lang, reason: `pytest is not installed for ${python.command}` });
          continue;
        }
        jobs.push({ report, example });
      }
    }
  }
  const limit = filter.jobs ?? Math.max(2, os.cpus().length * 2);
  const remaining = new Map(reports.map((r) => [r, jobs.filter((j) => j.report === r).length]));
  for (const r of reports) if (remaining.get(r) === 0) onChapter?.(r);
  await pool(jobs, limit, async ({ report, example }) => {
    const outcome = await runExample(example, fixtures, { python: filter.python });
    report.ran++;
    if (!outcome.ok) report.failures.push({ line: example.line, lang: example.lang, message: outcome.message ?? 'failed' });
    const left = remaining.get(report)! - 1;
    remaining.set(report, left);
    if (left === 0) { report.failures.sort((a, b) => a.line - b.line); onChapter?.(report); }
  });
  return reports;
}
