import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import type { BookConfig } from '../shared/model/config.js';
import type { Exercise } from '../exercise/shared/collect.js';
import type { CodeExample } from '../shared/model/chapter.js';
import {
  exerciseKey,
  fixtureFilesOf,
  isOfferedToRun,
  updateBrowserCheckRecord,
} from '../runner/build/browser-check-file.js';
import { RUNTIME_OUTPUT_LIMIT_BYTES, type BrowserRuntimeName, type RuntimeRunResult } from '../runner/node/runtimes.js';
import { judgeRun, type Verdict } from '../runner/shared/outcome.js';
import { verifyExercise, type ProgramRun } from '../exercise/node/verify-exercise.js';
import { CleanupGroup } from '../confine/cleanup.js';
import { assertConfined, probeIsolation } from '../confine/isolation.js';
import { probePython, type PythonInfo } from '../confine/interpreters.js';
import { planCheck, type CheckJob } from './plan.js';
import { ReaderRuntimes, readerLimits } from './reader-runtimes.js';
import { ReportProgress, type ChapterReport } from './report.js';
import {
  EXAMPLE_TIMEOUT_MS,
  runExample,
  runPythonProgram,
  type ExampleOutcome,
  type RunOptions,
} from './run-example.js';

export { probePython, type ChapterReport, type PythonInfo };

export interface CheckFilter {
  locales?: string[];
  slugs?: string[];
  /** How many examples run at once (a whole number from 1). */
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
  limits?: Pick<RunOptions, 'timeoutMs' | 'cpuTimeMs' | 'outputLimitBytes' | 'memoryLimitBytes' | 'isolation'>;
  /** Run the examples even where the machine cannot confine them fully (see confine/isolation.ts). */
  allowUnconfined?: boolean;
}

/**
 * The book's fixtures as every example gets them: copies of the validated files (fixtureFilesOf:
 * a link must resolve inside the project), in a folder of the check's own, so that what an example
 * sees is exactly what the site publishes.
 */
function stageFixtures(config: BookConfig, cleanup: CleanupGroup): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'pybook-fixtures-'));
  cleanup.add(() => rmSync(folder, { recursive: true, force: true }));
  for (const fixture of fixtureFilesOf(config)) copyFileSync(fixture.file, path.join(folder, fixture.name));
  return folder;
}

/** The verdict on a run in a reader's runtime: its output judged, or the limit it was ended at. */
function runtimeVerdict(
  example: CodeExample,
  result: RuntimeRunResult,
  limits: { timeoutMs: number; cpuTimeMs: number },
): Verdict {
  if (result === 'timeout') return { ok: false, message: `did not finish within ${limits.timeoutMs / 1000} s` };
  if (result === 'cpu-limit') return { ok: false, message: `used more than ${limits.cpuTimeMs / 1000} s of CPU time` };
  if (result === 'output-limit')
    return {
      ok: false,
      message: `output exceeded ${RUNTIME_OUTPUT_LIMIT_BYTES} bytes: the check ended the example there`,
    };
  return judgeRun(example, result);
}

/**
 * What an example's verdict depends on, natively and in the reader's runtimes: its language, code,
 * expected output or exception, and pytest's arguments and file name. Two examples alike in all of
 * these are one run.
 */
const runIdentity = (example: CodeExample) =>
  JSON.stringify([example.lang, example.code, example.output, example.raises, example.pytest, example.title]);

/** The run of `identity` in `runs`, made by `run` the first time; a later example alike counts as shared in its report. */
function runOnce<T>(
  runs: Map<string, Promise<T>>,
  identity: string,
  report: ChapterReport,
  run: () => Promise<T>,
): Promise<T> {
  const earlier = runs.get(identity);
  if (earlier) {
    report.shared++;
    return earlier;
  }
  const first = run();
  runs.set(identity, first);
  return first;
}

/** A wall-clock verdict, which a loaded machine can cause: such an example runs again, alone, before it counts. */
const outOfWallTime = (message: string | undefined) => /^did not finish within /.test(message ?? '');

/**
 * Runs `work` on every job, `limit` at once. After a job throws, no new job starts and
 * `onFailure` runs (to end the jobs still running); the first error is thrown once every running
 * job has settled, so none outlives the check.
 */
async function runAll<T>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<void>,
  onFailure: () => void,
): Promise<void> {
  const queue = pLimit(limit);
  let failure: { error: unknown } | undefined;
  await Promise.all(
    items.map((item) =>
      queue(async () => {
        if (failure) return;
        try {
          await work(item);
        } catch (error) {
          if (!failure) {
            failure = { error };
            onFailure();
          }
        }
      }),
    ),
  );
  if (failure) throw failure.error;
}

/**
 * Compiles every (translated) chapter and runs its examples: with python3 and node, and (unless
 * `browser: false`) in the reader's runtimes, Pyodide and the JavaScript sandbox, whose results
 * go to the browser-check record the build reads. An example that passes natively but fails in
 * the reader's runtime without `nobrowser="reason"` is a failure. Every run is confined (see
 * confine/); a machine that cannot confine them fully is refused unless `allowUnconfined`.
 */
export async function checkBook(
  config: BookConfig,
  filter: CheckFilter = {},
  onChapter?: (report: ChapterReport) => void,
): Promise<ChapterReport[]> {
  const jobs = filter.jobs ?? Math.max(2, os.cpus().length * 2);
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs must be a whole number from 1, not ${filter.jobs}`);
  const isolation = filter.limits?.isolation ?? probeIsolation();
  assertConfined(isolation, filter.allowUnconfined === true);
  const browser = filter.browser !== false;
  let python: PythonInfo | undefined;
  const probe = () => (python ??= probePython(filter.python));
  const plan = planCheck(config, {
    locales: filter.locales,
    slugs: filter.slugs,
    langs: filter.langs,
    browser,
    pytest: {
      get available() {
        return probe().hasPytest;
      },
      get command() {
        return probe().command;
      },
      allowMissing: filter.allowMissingPytest === true,
    },
  });
  const progress = new ReportProgress(
    plan.reports,
    (report) => plan.jobs.filter((job) => job.report === report).length,
    onChapter,
  );
  // However the check ends (a failure of its own, SIGINT, SIGTERM), every example's process tree
  // and temporary folder and every runtime host go with it.
  const cleanup = new CleanupGroup();
  try {
    const fixtures = stageFixtures(config, cleanup);
    const wallMs = filter.limits?.timeoutMs ?? EXAMPLE_TIMEOUT_MS;
    const reader = readerLimits(config, wallMs);
    const runtimes = new ReaderRuntimes(fixtures, {
      isolation,
      cleanup,
      cpuTimeMs: reader.cpuTimeMs,
      onStart: filter.onBrowserRuntime,
    });
    const run = new CheckRun(filter, fixtures, runtimes, reader, cleanup, browser);
    await runAll(
      plan.jobs,
      jobs,
      async (job) => {
        await run.job(job);
        if (!run.isRetried(job)) progress.done(job.report);
      },
      () => cleanup.runAll(),
    );
    // What ran out of wall-clock time beside other examples runs again alone, with twice the time.
    await runAll(
      run.retries(),
      1,
      async (job) => {
        await run.job(job, { alone: true });
        progress.done(job.report);
      },
      () => cleanup.runAll(),
    );
    if (browser && run.checked.size && !filter.keepRecord)
      updateBrowserCheckRecord(config, run.checked, plan.filtered ? undefined : plan.bookKeys);
  } finally {
    cleanup.close();
  }
  return plan.reports;
}

/** The running of a check's jobs, and what they found for the browser-check record. */
class CheckRun {
  /** Keys of the examples and exercises run in the reader's runtimes, and whether they passed there. */
  readonly checked = new Map<string, boolean>();
  private readonly retry = new Set<CheckJob>();
  /**
   * Runs shared by identical examples: the two editions print much of the same code (861 distinct
   * runs of the book's 1,432 examples), and an example's verdict depends only on what runOnce keys
   * it by. Each chapter still gets the verdict, at its own line.
   */
  private readonly nativeRuns = new Map<string, Promise<ExampleOutcome>>();
  private readonly readerRuns = new Map<string, Promise<Verdict>>();
  /**
   * Runs of exercise programs (a candidate answer with the exercise's tests), shared the same way:
   * the two editions' exercises are the same code (336 distinct programs of the book's 664), and
   * what a program prints depends on nothing else.
   */
  private readonly nativePrograms = new Map<string, Promise<ProgramRun>>();
  private readonly readerPrograms = new Map<string, Promise<ProgramRun>>();

  constructor(
    private readonly filter: CheckFilter,
    private readonly fixtures: string,
    private readonly runtimes: ReaderRuntimes,
    private readonly reader: { cpuTimeMs: number; timeoutMs: number },
    private readonly cleanup: CleanupGroup,
    private readonly browser: boolean,
  ) {}

  /** The jobs that ran out of wall-clock time and are to run again alone. */
  retries(): CheckJob[] {
    return [...this.retry];
  }

  isRetried(job: CheckJob): boolean {
    return this.retry.has(job);
  }

  private options(alone: boolean): RunOptions {
    const limits = this.filter.limits ?? {};
    const timeoutMs = (limits.timeoutMs ?? EXAMPLE_TIMEOUT_MS) * (alone ? 2 : 1);
    // The default python3 runs the examples as the interpreter itself (see run-example.ts).
    // The book's time limit (runner.timeLimitSeconds), as CPU time, unless the caller set one.
    return {
      ...limits,
      timeoutMs,
      cpuTimeMs: limits.cpuTimeMs ?? this.reader.cpuTimeMs,
      python: this.filter.python,
      cleanup: this.cleanup,
    };
  }

  async job(job: CheckJob, { alone = false } = {}): Promise<void> {
    if ('exercise' in job) return this.exercise(job.report, job.exercise, alone, job);
    const { report, example } = job;
    const outcome = await runOnce(this.nativeRuns, `${alone}\0${runIdentity(example)}`, report, () =>
      runExample(example, this.fixtures, this.options(alone)),
    );
    if (!outcome.ok && !alone && outOfWallTime(outcome.message)) {
      this.retry.add(job);
      return;
    }
    this.retry.delete(job);
    report.ran++;
    if (!outcome.ok) {
      report.failures.push({ line: example.line, lang: example.lang, message: outcome.message ?? 'failed' });
      if (this.browser && example.key !== undefined) this.checked.set(example.key, false);
      return;
    }
    report.passedNatively[example.lang] = (report.passedNatively[example.lang] ?? 0) + 1;
    if (this.browser && isOfferedToRun(example))
      await this.inReaderRuntime(example.lang as BrowserRuntimeName, report, example, alone);
  }

  private async inReaderRuntime(
    name: BrowserRuntimeName,
    report: ChapterReport,
    example: CodeExample,
    alone: boolean,
  ): Promise<void> {
    const timeoutMs = this.reader.timeoutMs * (alone ? 2 : 1);
    const verdict = await runOnce(this.readerRuns, `${alone}\0${runIdentity(example)}`, report, async () => {
      const result = await this.runtimes.with(name, (runtime) =>
        runtime.run(example.code, name === 'python' ? 'example.py' : 'example.mjs', timeoutMs),
      );
      return runtimeVerdict(example, result, { timeoutMs, cpuTimeMs: this.reader.cpuTimeMs });
    });
    report.browser[name].ran++;
    this.checked.set(example.key!, verdict.ok);
    if (verdict.ok) {
      report.browser[name].passed++;
      report.passedInBrowser.push(example.key!);
      return;
    }
    const label = name === 'python' ? `Pyodide (Python ${this.runtimes.version(name)})` : 'the JavaScript sandbox';
    report.failures.push({
      line: example.line,
      lang: example.lang,
      message: `fails in the reader's browser, in ${label}; change the example, or mark it nobrowser="why" if it cannot run in a browser:\n${verdict.message}`,
    });
  }

  /** The exercise's answer must pass its tests and its starter code fail them, with python3 and (unless --no-browser) in Pyodide. */
  private async exercise(report: ChapterReport, exercise: Exercise, alone: boolean, job: CheckJob): Promise<void> {
    const options = this.options(alone);
    const native = (program: string): Promise<ProgramRun> =>
      runOnce(this.nativePrograms, `${alone}\0${program}`, report, () =>
        runPythonProgram(program, this.fixtures, options).then((run) => (run.ending === 'exited' ? run : run.ending)),
      );
    const where = `with ${this.filter.python ?? 'python3'}`;
    const failures = await verifyExercise(
      exercise,
      native,
      where,
      { timeoutMs: options.timeoutMs!, cpuTimeMs: options.cpuTimeMs },
      { traps: true },
    );
    if (!alone && failures.some((failure) => outOfWallTime(failure.message.split('\n')[1]?.trim()))) {
      this.retry.add(job);
      return;
    }
    this.retry.delete(job);
    const runtimesRun = [this.filter.python ?? 'python3'];
    if (this.browser && failures.length === 0) {
      const timeoutMs = this.reader.timeoutMs * (alone ? 2 : 1);
      const inPyodide = (program: string): Promise<ProgramRun> =>
        runOnce(
          this.readerPrograms,
          `${alone}\0${program}`,
          report,
          () =>
            this.runtimes.with('python', (runtime) =>
              runtime.run(program, 'exercise_check.py', timeoutMs),
            ) as Promise<ProgramRun>,
        );
      failures.push(
        ...(await verifyExercise(exercise, inPyodide, 'in Pyodide', { timeoutMs, cpuTimeMs: this.reader.cpuTimeMs })),
      );
      runtimesRun.push('pyodide');
    }
    for (const failure of failures) report.failures.push({ ...failure, lang: 'python' });
    report.exercise = { verified: failures.length === 0, runtimes: runtimesRun };
    // Verified in the reader's Python too: the page offers Check (see browser-check-file.ts).
    if (this.browser) {
      const verifiedInBrowser = failures.length === 0 && runtimesRun.includes('pyodide');
      this.checked.set(exerciseKey(exercise), verifiedInBrowser);
      if (verifiedInBrowser) report.passedInBrowser.push(exerciseKey(exercise));
    }
  }
}
