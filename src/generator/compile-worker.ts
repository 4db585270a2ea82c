/**
 * A compile pool's worker thread (see compile-pool.ts and compile-budget/compile-thread.ts):
 * says when it is ready (its timer must not count the time it takes to load the parser), then
 * compiles each chapter it is sent and replies with the outcome. A chapter's mistake (a
 * BookError) crosses as plain data, since a thread boundary keeps an error's message but not its
 * class or fields.
 */
import { parentPort } from 'node:worker_threads';
import type { SourcePosition } from '../core/errors.js';
import { isStackOverflow } from './compile-budget/stack-overflow.js';
import { runCompileJob, type CompileJob } from './compile-jobs.js';
import type { CompiledChapter } from '../shared/model/chapter.js';

export type WorkerReply =
  | { ready: true }
  | { key: string; chapter: CompiledChapter }
  | { key: string; error: { message: string; position?: SourcePosition; sourceLine?: string } }
  | { key: string; overflow: true }
  | { key: string; file: string; crash: string };

parentPort?.on('message', (job: CompileJob) => {
  let reply: WorkerReply;
  try {
    const outcome = runCompileJob(job);
    reply =
      'chapter' in outcome
        ? outcome
        : {
            key: job.key,
            error: {
              message: outcome.error.message,
              position: outcome.error.position,
              sourceLine: outcome.error.sourceLine,
            },
          };
  } catch (error) {
    reply = isStackOverflow(error)
      ? { key: job.key, overflow: true }
      : {
          key: job.key,
          file: job.file,
          crash: error instanceof Error ? (error.stack ?? error.message) : String(error),
        };
  }
  parentPort!.postMessage(reply);
});
parentPort?.postMessage({ ready: true } satisfies WorkerReply);
