import os from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BookError } from '../shared/errors.js';
import type { CompileJob, CompileOutcome } from './compile-jobs.js';
import type { WorkerReply } from './compile-worker.js';

/**
 * Fewer cores than this and chapters compile on the main thread only: on a 2-vCPU machine a
 * second thread made a cold build slower (two processes each parsing half the book finish after
 * one parsing all of it: the two vCPUs do not give two cores' worth of work).
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

/**
 * Compiles chapters on `threads` threads: this one and threads - 1 workers, each taking the next
 * chapter (largest first) as soon as it is free, so that one long chapter does not hold the
 * others back. Outcomes come back in the order of `jobs`, whichever thread made them, so the
 * build is the same on any number of threads.
 */
export async function compileChapters(jobs: CompileJob[], threads = 1): Promise<CompileOutcome[]> {
  if (!jobs.length) return [];
  // Loaded only when something needs compiling: a build served from the cache skips the whole pipeline.
  const { runCompileJob } = await import('./compile-jobs.js');
  if (threads <= 1) return jobs.map(runCompileJob);

  const queue = [...jobs].sort((a, b) => b.source.length - a.source.length);
  const outcomes = new Map<string, CompileOutcome>();
  const workers = Array.from({ length: threads - 1 }, startWorker);
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (error: Error) => {
        if (!failed) reject(error);
        failed = true;
      };
      const settleIfDone = () => { if (outcomes.size === jobs.length) resolve(); };
      for (const worker of workers) {
        const giveNext = () => {
          const job = queue.shift();
          if (job) worker.postMessage(job);
        };
        worker.on('message', (reply: WorkerReply) => {
          if ('crash' in reply) return fail(new Error(`compiling ${reply.file} failed: ${reply.crash}`));
          outcomes.set(reply.key, 'chapter' in reply ? reply : { key: reply.key, error: new BookError(reply.error.message, reply.error.position, reply.error.sourceLine) });
          giveNext();
          settleIfDone();
        });
        worker.on('error', fail);
        worker.on('exit', (code) => { if (outcomes.size < jobs.length) fail(new Error(`a compile worker stopped (exit code ${code})`)); });
        giveNext();
      }
      // This thread takes chapters too; between two it lets the workers' replies in, so that each
      // gets its next chapter within one chapter's time.
      const compileHere = () => {
        if (failed) return;
        const job = queue.shift();
        if (!job) return settleIfDone();
        try {
          outcomes.set(job.key, runCompileJob(job));
        } catch (error) {
          return fail(error as Error);
        }
        settleIfDone();
        setImmediate(compileHere);
      };
      compileHere();
    });
  } finally {
    for (const worker of workers) void worker.terminate();
  }
  return jobs.map((job) => outcomes.get(job.key)!);
}

/**
 * A compile worker. From TypeScript sources (tests, benchmarks), tsx's loader is registered in
 * the worker first: a worker's execArgv cannot carry `--import` loaders on Node 20.
 */
function startWorker(): Worker {
  const fromSources = import.meta.url.endsWith('.ts');
  const worker = new URL(fromSources ? './compile-worker.ts' : './compile-worker.js', import.meta.url);
  if (!fromSources) return new Worker(worker);
  // tsx's ESM entry (resolve() gives the CommonJS one, whose register() cannot find its hooks from a worker).
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(worker.href)}); });`;
  return new Worker(bootstrap, { eval: true });
}
