import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { BookError } from '../shared/errors.js';
import type { CompileJob, CompileOutcome } from './compile-jobs.js';

/** Below this many chapters a second thread costs more to start than it saves. */
const PARALLEL_THRESHOLD = 16;

// The worker runs compiled JavaScript; from TypeScript sources (tests) everything stays in-process.
const workerUrl = import.meta.url.endsWith('.js') ? new URL('./compile-worker.js', import.meta.url) : undefined;

/**
 * Compiles chapters on this thread and, when the machine has a second core and the book is big
 * enough, on one worker thread at the same time. Parsing MDX is most of a cold build's work.
 */
export async function compileChapters(jobs: CompileJob[]): Promise<CompileOutcome[]> {
  if (!jobs.length) return [];
  // Loaded only when something needs compiling: a build served from the cache skips the whole pipeline.
  const { runCompileJob } = await import('./compile-jobs.js');
  if (!workerUrl || jobs.length < PARALLEL_THRESHOLD || os.availableParallelism() < 2) return jobs.map(runCompileJob);
  // Alternate by size so both halves take about as long.
  const sorted = [...jobs].sort((a, b) => b.source.length - a.source.length);
  const mine = sorted.filter((_, i) => i % 2 === 0);
  const theirs = sorted.filter((_, i) => i % 2 === 1);
  const worker = new Worker(workerUrl, { env: process.env });
  try {
    const remote = new Promise<CompileOutcome[]>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the compile worker stopped (exit code ${code})`)));
    });
    worker.postMessage(theirs);
    const local = mine.map(runCompileJob);
    return [...local, ...(await remote)];
  } finally {
    void worker.terminate();
  }
}

export function outcomeError(outcome: Extract<CompileOutcome, { error: unknown }>): BookError {
  return new BookError(outcome.error.message, outcome.error.position, outcome.error.sourceLine);
}
