import os from 'node:os';
import { costlyChapterError } from './compile-budget/costly-chapter-error.js';
import { locateCulprit } from './compile-budget/locate-culprit.js';
import { isStackOverflow } from './compile-budget/stack-overflow.js';
import type { CompileJob, CompileOutcome } from './compile-jobs.js';
import { CompileThread, type CompileFailure, type ThreadResult } from './compile-thread.js';

/**
 * Fewer cores than this and chapters compile on one thread only: on a 2-vCPU machine a second
 * thread made a cold build slower (two processes each parsing half the book finish after one
 * parsing all of it: the two vCPUs do not give two cores' worth of work).
 */
export const POOL_MIN_CORES = 4;
/** Fewer chapters than this to compile and a worker costs more to start (it loads the parser) than it saves. */
export const POOL_MIN_JOBS = 24;
/** More threads than this mostly add start-up and copying: the parser is the only parallel part. */
const POOL_MAX_THREADS = 8;

/**
 * How many threads compile `jobs` chapters: `requested` when given (`pybook build --threads`),
 * else one below POOL_MIN_CORES cores or POOL_MIN_JOBS chapters, else one per core up to eight.
 */
export function compileThreads(jobs: number, requested?: number, cores = os.availableParallelism()): number {
  if (requested !== undefined) return Math.max(1, Math.min(requested, jobs || 1));
  if (cores < POOL_MIN_CORES || jobs < POOL_MIN_JOBS) return 1;
  return Math.min(cores, POOL_MAX_THREADS);
}

export interface CompilePlan {
  /** Threads that compile (see compileThreads). */
  threads: number;
  /** A chapter's time budget in milliseconds (see compile-budget/budget.ts). */
  budgetOf: (job: CompileJob) => number;
  /**
   * Whether a chapter compiles in a worker that is stopped past its budget. The others compile
   * on this thread (and threads - 1 workers) without one; a stack overflow there is still caught
   * and explained. Watch mode budgets every chapter: its server must keep answering.
   */
  budgeted: (job: CompileJob) => boolean;
  /** Keep the workers for the next call (watch mode: a fresh worker loads the parser, a second and more of every save). */
  keepWorkers?: boolean;
}

/** Workers kept between calls (see CompilePlan.keepWorkers). */
const parked: CompileThread[] = [];
function takeWorker(): CompileThread {
  const worker = parked.pop();
  worker?.unpark();
  return worker ?? new CompileThread();
}

/**
 * Compiles chapters: each thread takes the next chapter (largest first) as soon as it is free,
 * so that one long chapter does not hold the others back. Outcomes come back in the order of
 * `jobs`, whichever thread made them, so the build is the same on any number of threads. A
 * chapter over its budget or the stack fails with the line that causes it (compile-budget/).
 */
export async function compileChapters(jobs: CompileJob[], plan: CompilePlan): Promise<CompileOutcome[]> {
  if (!jobs.length) return [];
  const bySize = [...jobs].sort((a, b) => b.source.length - a.source.length);
  const budgeted = bySize.filter(plan.budgeted);
  const free = bySize.filter((job) => !plan.budgeted(job));
  const results = new Map<string, ThreadResult>();
  // Budgeted chapters beside free ones are the few a pre-check found suspicious: one worker does.
  const budgetedWorkers = budgeted.length === 0 ? 0 : free.length === 0 ? plan.threads : 1;
  const freeWorkers = free.length === 0 ? 0 : plan.threads - 1;
  const workers = Array.from({ length: budgetedWorkers + freeWorkers }, () =>
    plan.keepWorkers ? takeWorker() : new CompileThread(),
  );
  let finished = false;
  try {
    const loops = workers.map(async (worker, i) => {
      const [queue, budget] = i < budgetedWorkers ? [budgeted, plan.budgetOf] : [free, undefined];
      for (let job = queue.shift(); job; job = queue.shift())
        results.set(job.key, await worker.run(job, budget?.(job)));
    });
    if (free.length) loops.push(compileHere(free, results, workers.length > 0));
    await Promise.all(loops);
    const outcomes: CompileOutcome[] = [];
    // A worker already started (and warm) probes the failing chapters (a new one takes seconds to load the parser).
    const prober = () => (workers[0] ??= plan.keepWorkers ? takeWorker() : new CompileThread());
    for (const job of jobs) {
      const result = results.get(job.key)!;
      outcomes.push(
        'failure' in result
          ? { key: job.key, error: await explainFailure(job, result.failure, plan.budgetOf(job), prober()) }
          : result,
      );
    }
    finished = true;
    return outcomes;
  } finally {
    for (const worker of workers) {
      // A worker that crashed or failed to start is never kept.
      if (plan.keepWorkers && finished) {
        worker.park();
        parked.push(worker);
      } else worker.close();
    }
  }
}

/**
 * This thread's share: chapters compiled here, one after another. Beside workers it lets their
 * replies in between two chapters, so that each gets its next chapter within one chapter's time.
 */
async function compileHere(queue: CompileJob[], results: Map<string, ThreadResult>, beside: boolean): Promise<void> {
  // Loaded only when something compiles here: a build served from the cache skips the whole pipeline.
  const { runCompileJob } = await import('./compile-jobs.js');
  for (let job = queue.shift(); job; job = queue.shift()) {
    try {
      results.set(job.key, runCompileJob(job));
    } catch (error) {
      if (!isStackOverflow(error)) throw error;
      results.set(job.key, { key: job.key, failure: 'overflow' });
    }
    if (beside) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The error of a chapter over its budget or the stack, naming the line found by compiling variants of it in a budgeted worker. */
async function explainFailure(job: CompileJob, failure: CompileFailure, budgetMs: number, prober: CompileThread) {
  const culprit = await locateCulprit(job.source, async (source) => {
    const result = await prober.run({ ...job, key: `${job.key}\0probe`, source }, budgetMs);
    return 'failure' in result ? result.failure : undefined;
  });
  return costlyChapterError(job.file, job.source, failure, budgetMs, culprit);
}
