import path from 'node:path';
import { loadBook } from '../book/load-book.js';
import { pageRoute } from '../book/routes.js';
import type { BookConfig } from '../shared/model/config.js';
import type { Exercise } from '../exercise/shared/collect.js';
import { compileChapter } from '../markdown/compile.js';
import type { CodeExample } from '../shared/model/chapter.js';
import { exerciseKey } from '../runner/build/browser-check-file.js';
import { emptyReport, type ChapterReport } from './report.js';
import { isRunnable } from './run-example.js';

/** Which chapters and examples a check runs. */
export interface CheckSelection {
  locales?: string[];
  slugs?: string[];
  /** Only examples in these languages ('python', 'javascript'). */
  langs?: string[];
  /** Whether the check also runs the reader's runtimes (and so must learn every example's key). */
  browser: boolean;
  /** Whether the Python has pytest; when not, what to do with pytest blocks. */
  pytest: { available: boolean; command: string; allowMissing: boolean };
}

/** One thing to run: an example, or a chapter's exercise. */
export type CheckJob = { report: ChapterReport; example: CodeExample } | { report: ChapterReport; exercise: Exercise };

export interface CheckPlan {
  reports: ChapterReport[];
  jobs: CheckJob[];
  /** Every example's and exercise's key in the book (for an unfiltered check: to drop stale ones from the record). */
  bookKeys: Set<string>;
  /** Whether the selection leaves out part of the book. */
  filtered: boolean;
}

/** Compiles the selected (translated) chapters and lists what to run, with a report per chapter. */
export function planCheck(config: BookConfig, selection: CheckSelection): CheckPlan {
  const book = loadBook(config);
  const filtered = Boolean(selection.locales || selection.slugs || selection.langs);
  // An unfiltered check also learns every example's key, to drop stale ones from the record.
  const learnKeys = selection.browser && !filtered;
  const plan: CheckPlan = { reports: [], jobs: [], bookKeys: new Set(), filtered };
  for (const locale of book.locales) {
    const wanted = !selection.locales || selection.locales.includes(locale.code);
    if (!wanted && !learnKeys) continue;
    for (const chapter of book.chapters[locale.code]) {
      if (chapter.fallback) continue;
      const chosen = wanted && (!selection.slugs || selection.slugs.includes(chapter.slug));
      if (!chosen && !learnKeys) continue;
      const file = path.relative(process.cwd(), chapter.file);
      const compiled = compileChapter(chapter.source, file, {
        slug: chapter.slug,
        basePath: config.basePath,
        localePaths: [],
        routeFor: (slug) => pageRoute(config.basePath, locale, slug),
      });
      for (const { key } of compiled.examples) if (key !== undefined) plan.bookKeys.add(key);
      if (compiled.exercise) plan.bookKeys.add(exerciseKey(compiled.exercise));
      if (!chosen) continue;
      const report = emptyReport(locale.code, chapter.slug, file);
      plan.reports.push(report);
      for (const example of compiled.examples) planExample(plan, report, example, selection);
      if (compiled.exercise && (!selection.langs || selection.langs.includes('python')))
        plan.jobs.push({ report, exercise: compiled.exercise });
    }
  }
  return plan;
}

function planExample(plan: CheckPlan, report: ChapterReport, example: CodeExample, selection: CheckSelection): void {
  if (example.lang === 'python') report.pythonBlocks++;
  if (example.norun !== undefined && (example.lang === 'python' || example.lang === 'javascript')) {
    report.exempt.push({ line: example.line, lang: example.lang, reason: example.norun });
  }
  if (!isRunnable(example)) return;
  if (example.lang === 'python') report.pythonRunnable++;
  if (selection.langs && !selection.langs.includes(example.lang)) return;
  if (example.pytest !== undefined && !selection.pytest.available) {
    const reason = `pytest is not installed for ${selection.pytest.command}`;
    if (selection.pytest.allowMissing) report.notRun.push({ line: example.line, lang: example.lang, reason });
    else
      report.failures.push({
        line: example.line,
        lang: example.lang,
        message: `could not run: ${reason} (install it, or pass --allow-missing-pytest to list such examples as not run)`,
      });
    return;
  }
  plan.jobs.push({ report, example });
}
