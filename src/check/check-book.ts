import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { loadBook } from '../book/load-book.js';
import { pageRoute } from '../book/routes.js';
import type { BookConfig } from '../config/types.js';
import { compileChapter } from '../markdown/compile.js';
import type { CodeExample } from '../markdown/types.js';
import { exerciseKey, fixturesFolderOf, isOfferedToRun, updateBrowserCheckRecord } from '../runner/browser-check-file.js';
import { BrowserRuntime, RUNTIME_OUTPUT_LIMIT_BYTES, type BrowserRuntimeName } from '../runner/node/runtimes.js';
import { judgeRun } from '../runner/outcome.js';
import { CleanupGroup } from './confine/cleanup.js';
import { networkOnlyPrefix, probeIsolation } from './confine/isolation.js';
import { isRunnable, runExample, runPythonProgram, type RunOptions } from './run-example.js';
import { verifyExercise, type ProgramRun } from './check-exercise.js';
import type { Exercise } from '../exercise/collect.js';

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
  /** Examples run in the reader's runtimes (Pyodide, the JavaScript sandbox), and how many passed there, per language. */
  browser: Record<'python' | 'javascript', { ran: number; passed: number }>;
  /** Examples that passed with python3 / node, per language. */
  passedNatively: Record<string, number>;
  /** Keys (browser-check record) of the examples that passed in the reader's runtimes. */
  passedInBrowser: string[];
  /** The chapter's exercise, when it has one: whether its answer passed and its starter failed its tests everywhere it ran. */
  exercise?: { verified: boolean; runtimes: string[] };
}

export interface PythonInfo {
  command: string;
  version?: string;
  hasPytest: boolean;
  /** The interpreter's own file (sys.executable), when the command is a launcher such as pyenv's shim. */
  executable?: string;
}

/** Which Python a check runs with, and whether it can run pytest blocks. */
export function probePython(command = 'python3'): PythonInfo {
  const result = spawnSync(command, ['-c', 'import sys\nprint(sys.version.split()[0])\nprint(sys.executable)\ntry:\n    import pytest\n    print("pytest")\nexcept ImportError:\n    pass'], { encoding: 'utf8', timeout: 30_000 });
  const [version, executable, pytest] = (result.stdout ?? '').trim().split('\n');
  if (result.status !== 0) return { command, hasPytest: false };
  return { command, version, hasPytest: pytest === 'pytest', ...(executable ? { executable } : {}) };
}

export interface CheckFilter {
  locales?: string[];
  slugs?: string[];
  jobs?: number;
  /** The Python interpreter to run examples with. */
  python?: string;
  /** Only examples in these languages ('python', 'javascript'). */
  langs?: string[];
  /** Also run the examples in the reader's runtimes and update the browser-check record (default true). */
  browser?: boolean;
  /** Leave the browser-check record as it is (the tests compare it instead). */
  keepRecord?: boolean;
  /** Called once each reader's runtime has started, with its version. */
  onBrowserRuntime?: (name: BrowserRuntimeName, version: string) => void;
  /**
   * List pytest blocks as not run when the Python has no pytest (default: each is a failure, so
   * that a check without failures means that every example ran).
   */
  allowMissingPytest?: boolean;
  /** The limits of each native run (time, output, memory) and how runs are confined; defaults in run-example.ts. */
  limits?: Pick<RunOptions, 'timeoutMs' | 'outputLimitBytes' | 'memoryLimitBytes' | 'isolation'>;
}

/**
 * Runs a list of async jobs with at most `limit` at once, keeping result order. After a job
 * throws, no new job starts and `onFailure` runs (to end the jobs still running); the first
 * error is thrown once every running job has settled, so none outlives the pool.
 */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>, onFailure: () => void): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failure) {
      const i = next++;
      try {
        results[i] = await work(items[i]);
      } catch (error) {
        if (!failure) { failure = { error }; onFailure(); }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.error;
  return results;
}

/** The reader's runtime an example runs in, if the page may offer to run it. */
function browserRuntimeOf(example: CodeExample): BrowserRuntimeName | undefined {
  return isOfferedToRun(example) ? (example.lang as BrowserRuntimeName) : undefined;
}

/**
 * Compiles every (translated) chapter and runs its examples: with python3 and node, and (unless
 * `browser: false`) in the reader's runtimes, Pyodide and the JavaScript sandbox, whose results
 * go to the browser-check record the build reads. An example that passes natively but fails in
 * the reader's runtime without `nobrowser="reason"` is a failure.
 */
export async function checkBook(config: BookConfig, filter: CheckFilter = {}, onChapter?: (report: ChapterReport) => void): Promise<ChapterReport[]> {
  const book = loadBook(config);
  const fixtures = fixturesFolderOf(config);
  const jobs: Array<{ report: ChapterReport; example?: CodeExample; exercise?: Exercise }> = [];
  let python: PythonInfo | undefined;
  const probe = () => (python ??= probePython(filter.python));
  // The default python3 runs the examples as the interpreter itself, not through a launcher such as
  // pyenv's shim: a chain of shell scripts that costs several times the CPU of a short example, on
  // every run. A Python named with --python runs as given (it may be a wrapper with flags of its own).
  const interpreter = () => filter.python ?? probe().executable;
  const reports: ChapterReport[] = [];
  const browser = filter.browser !== false;
  const filtered = Boolean(filter.locales || filter.slugs || filter.langs);
  const bookKeys = new Set<string>();
  for (const locale of book.locales) {
    const wanted = !filter.locales || filter.locales.includes(locale.code);
    // An unfiltered check also learns every example's key, to drop stale ones from the record.
    if (!wanted && !(browser && !filtered)) continue;
    for (const chapter of book.chapters[locale.code]) {
      if (chapter.fallback) continue;
      const chosen = wanted && (!filter.slugs || filter.slugs.includes(chapter.slug));
      if (!chosen && !(browser && !filtered)) continue;
      const file = path.relative(process.cwd(), chapter.file);
      const compiled = compileChapter(chapter.source, file, {
        slug: chapter.slug, basePath: config.basePath, localePaths: [], routeFor: (slug) => pageRoute(config.basePath, locale, slug),
      });
      for (const { key } of compiled.examples) if (key !== undefined) bookKeys.add(key);
      if (compiled.exercise) bookKeys.add(exerciseKey(compiled.exercise));
      if (!chosen) continue;
      const report: ChapterReport = {
        locale: locale.code, slug: chapter.slug, file, ran: 0, exempt: [], pythonBlocks: 0, pythonRunnable: 0, failures: [], notRun: [],
        browser: { python: { ran: 0, passed: 0 }, javascript: { ran: 0, passed: 0 } }, passedNatively: {}, passedInBrowser: [],
      };
      reports.push(report);
      for (const example of compiled.examples) {
        if (example.lang === 'python') report.pythonBlocks++;
        if (example.norun !== undefined && (example.lang === 'python' || example.lang === 'javascript')) {
          report.exempt.push({ line: example.line, lang: example.lang, reason: example.norun });
        }
        if (!isRunnable(example)) continue;
        if (example.lang === 'python') report.pythonRunnable++;
        if (filter.langs && !filter.langs.includes(example.lang)) continue;
        if (example.pytest !== undefined && !probe().hasPytest) {
          const reason = `pytest is not installed for ${probe().command}`;
          if (filter.allowMissingPytest) report.notRun.push({ line: example.line, lang: example.lang, reason });
          else report.failures.push({ line: example.line, lang: example.lang, message: `could not run: ${reason} (install it, or pass --allow-missing-pytest to list such examples as not run)` });
          continue;
        }
        jobs.push({ report, example });
      }
      if (compiled.exercise && (!filter.langs || filter.langs.includes('python'))) jobs.push({ report, exercise: compiled.exercise });
    }
  }
  const limit = filter.jobs ?? Math.max(2, os.cpus().length * 2);
  const remaining = new Map(reports.map((r) => [r, jobs.filter((j) => j.report === r).length]));
  for (const r of reports) if (remaining.get(r) === 0) onChapter?.(r);
  const done = (report: ChapterReport) => {
    const left = remaining.get(report)! - 1;
    remaining.set(report, left);
    if (left === 0) { report.failures.sort((a, b) => a.line - b.line); onChapter?.(report); }
  };

  // The reader's runtimes run one example at a time each, beside the native pool.
  const runtimes = new Map<BrowserRuntimeName, BrowserRuntime>();
  const versions = new Map<BrowserRuntimeName, string>();
  const queues = new Map<BrowserRuntimeName, Promise<void>>();
  const checked = new Map<string, boolean>();
  const timeoutMs = config.runner.timeLimitSeconds * 1000;
  /** Runs `work` with the named reader's runtime, one job at a time per runtime, starting it the first time. */
  const withRuntime = <T>(name: BrowserRuntimeName, work: (runtime: BrowserRuntime) => Promise<T>): Promise<T> => {
    const previous = queues.get(name) ?? Promise.resolve();
    const next = previous.then(async () => {
      let runtime = runtimes.get(name);
      if (!runtime) {
        // No network for the examples in the reader's runtimes either (Pyodide's `js.fetch`).
        runtimes.set(name, (runtime = new BrowserRuntime(name, fixtures, { launcher: networkOnlyPrefix(filter.limits?.isolation ?? probeIsolation()) })));
        const started = runtime;
        cleanup.add(() => started.close());
      }
      if (!versions.has(name)) { versions.set(name, await runtime.start()); filter.onBrowserRuntime?.(name, versions.get(name)!); }
      return work(runtime);
    });
    queues.set(name, next.then(() => {}, () => {}));
    return next;
  };
  const runInBrowser = (name: BrowserRuntimeName, report: ChapterReport, example: CodeExample): Promise<void> => withRuntime(name, async (runtime) => {
    const result = await runtime.run(example.code, name === 'python' ? 'example.py' : 'example.mjs', timeoutMs);
    const verdict = result === 'timeout' ? { ok: false as const, message: `did not finish within ${timeoutMs / 1000} s` }
      : result === 'output-limit' ? { ok: false as const, message: `output exceeded ${RUNTIME_OUTPUT_LIMIT_BYTES} bytes: the check ended the example there` }
        : judgeRun(example, result);
    report.browser[name].ran++;
    checked.set(example.key!, verdict.ok);
    if (verdict.ok) { report.browser[name].passed++; report.passedInBrowser.push(example.key!); return; }
    const label = name === 'python' ? `Pyodide (Python ${versions.get(name)})` : 'the JavaScript sandbox';
    report.failures.push({
      line: example.line, lang: example.lang,
      message: `fails in the reader's browser, in ${label}; change the example, or mark it nobrowser="why" if it cannot run in a browser:\n${verdict.message}`,
    });
  });

  /** The exercise's answer must pass its tests and its starter code fail them, with python3 and (unless --no-browser) in Pyodide. */
  const checkExercise = async (report: ChapterReport, exercise: Exercise): Promise<void> => {
    const native = (program: string): Promise<ProgramRun> => runPythonProgram(program, fixtures, { ...filter.limits, python: interpreter(), cleanup })
      .then((run) => (run.ending === 'timeout' || run.ending === 'output-limit' ? run.ending : run));
    const failures = await verifyExercise(exercise, native, `with ${filter.python ?? 'python3'}`, filter.limits?.timeoutMs ?? timeoutMs);
    const runtimesRun = [filter.python ?? 'python3'];
    if (browser && failures.length === 0) {
      const inPyodide = (program: string) => withRuntime('python', (runtime) => runtime.run(program, 'exercise_check.py', timeoutMs)) as Promise<ProgramRun>;
      failures.push(...await verifyExercise(exercise, inPyodide, `in Pyodide`, timeoutMs));
      runtimesRun.push('pyodide');
    }
    for (const failure of failures) report.failures.push({ ...failure, lang: 'python' });
    report.exercise = { verified: failures.length === 0, runtimes: runtimesRun };
    // Verified in the reader's Python too: the page offers Check (see browser-check-file.ts).
    if (browser) {
      const verifiedInBrowser = failures.length === 0 && runtimesRun.includes('pyodide');
      checked.set(exerciseKey(exercise), verifiedInBrowser);
      if (verifiedInBrowser) report.passedInBrowser.push(exerciseKey(exercise));
    }
  };

  // However the check ends (a failure of its own, SIGINT, SIGTERM), every example's process tree
  // and temporary folder and every runtime host go with it.
  const cleanup = new CleanupGroup();
  try {
    await pool(jobs, limit, async ({ report, example, exercise }) => {
      if (exercise) { await checkExercise(report, exercise); done(report); return; }
      if (!example) return;
      const outcome = await runExample(example, fixtures, { ...filter.limits, python: interpreter(), cleanup });
      report.ran++;
      if (!outcome.ok) {
        report.failures.push({ line: example.line, lang: example.lang, message: outcome.message ?? 'failed' });
        if (browser && example.key !== undefined) checked.set(example.key, false);
      }
      if (outcome.ok) report.passedNatively[example.lang] = (report.passedNatively[example.lang] ?? 0) + 1;
      const runtime = browser && outcome.ok ? browserRuntimeOf(example) : undefined;
      if (runtime) await runInBrowser(runtime, report, example);
      done(report);
    }, () => cleanup.runAll());
  } finally {
    cleanup.close();
  }
  if (browser && checked.size && !filter.keepRecord) updateBrowserCheckRecord(config, checked, filtered ? undefined : bookKeys);
  return reports;
}
