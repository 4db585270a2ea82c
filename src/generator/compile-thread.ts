/**
 * One compile worker thread that can be stopped: a chapter past its budget has its worker
 * terminated (the only way to interrupt a synchronous parser) and a fresh worker takes the next
 * chapter.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BookError } from '../core/errors.js';
import type { CompileJob, CompileOutcome } from './compile-jobs.js';
import type { WorkerReply } from './compile-worker.js';

/** A chapter compiled, or one that failed in a way its own text must explain (see compile-budget/locate-culprit.ts). */
export type ThreadResult = CompileOutcome | { key: string; failure: CompileFailure };
/** Over its time budget, or deeper than the stack. */
export type CompileFailure = 'timeout' | 'overflow';

export class CompileThread {
  private worker!: Worker;
  private ready!: Promise<void>;
  private closed = false;

  constructor() {
    this.start();
  }

  /**
   * Compiles `job`. Past `budgetMs` (counted from when the worker is ready, not from when it
   * started loading the parser) the worker is stopped and the result is a timeout. A worker that
   * crashes or exits rejects.
   */
  async run(job: CompileJob, budgetMs?: number): Promise<ThreadResult> {
    await this.ready;
    const worker = this.worker;
    return new Promise<ThreadResult>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      };
      const timer =
        budgetMs === undefined
          ? undefined
          : setTimeout(() => {
              done();
              void worker.terminate();
              this.start();
              resolve({ key: job.key, failure: 'timeout' });
            }, budgetMs);
      const onMessage = (reply: WorkerReply) => {
        if ('ready' in reply) return;
        done();
        if ('crash' in reply) reject(new Error(`compiling ${reply.file} failed: ${reply.crash}`));
        else if ('overflow' in reply) resolve({ key: reply.key, failure: 'overflow' });
        else if ('chapter' in reply) resolve(reply);
        else
          resolve({
            key: reply.key,
            error: new BookError(reply.error.message, reply.error.position, reply.error.sourceLine),
          });
      };
      const onError = (error: Error) => {
        done();
        reject(error);
      };
      const onExit = (code: number) => {
        done();
        reject(new Error(`a compile worker stopped (exit code ${code})`));
      };
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(job);
    });
  }

  /** Kept for a later build (watch mode): an idle worker must not keep the process alive. */
  park(): void {
    this.worker.unref();
  }

  /** Taken again for a build: it is waited for now. */
  unpark(): void {
    this.worker.ref();
  }

  close(): void {
    this.closed = true;
    void this.worker.terminate();
  }

  private start(): void {
    if (this.closed) return;
    const worker = (this.worker = startWorker());
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (reply: WorkerReply) => {
        if (!('ready' in reply)) return;
        worker.off('message', onMessage).off('error', reject);
        resolve();
      };
      worker.on('message', onMessage).on('error', reject);
    });
    // A worker that fails to start is reported by the run() that awaits it, not as an unhandled rejection.
    this.ready.catch(() => {});
  }
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
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(worker.href)}); });`;
  return new Worker(bootstrap, { eval: true });
}
