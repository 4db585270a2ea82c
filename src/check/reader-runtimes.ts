import type { BookConfig } from '../shared/model/config.js';
import { BrowserRuntime, type BrowserRuntimeName } from '../runner/node/runtimes.js';
import type { CleanupGroup } from '../confine/cleanup.js';
import type { Isolation } from '../confine/isolation.js';

/**
 * The reader's runtimes of one check (Pyodide, the JavaScript sandbox), each started on first
 * use, confined like the examples, and closed with the check's cleanup group. Each runs one job at
 * a time, beside the native pool.
 */
export class ReaderRuntimes {
  private readonly runtimes = new Map<BrowserRuntimeName, BrowserRuntime>();
  private readonly versions = new Map<BrowserRuntimeName, string>();
  private readonly queues = new Map<BrowserRuntimeName, Promise<void>>();

  constructor(
    private readonly fixtures: string,
    private readonly options: {
      isolation: Isolation;
      cleanup: CleanupGroup;
      cpuTimeMs: number;
      onStart?: (name: BrowserRuntimeName, version: string) => void;
    },
  ) {}

  /** The version a runtime reported when it started ("3.14.2", "Node 20.20.2 sandbox"). */
  version(name: BrowserRuntimeName): string | undefined {
    return this.versions.get(name);
  }

  /** Runs `work` with the named runtime, one job at a time per runtime, starting it the first time. */
  with<T>(name: BrowserRuntimeName, work: (runtime: BrowserRuntime) => Promise<T>): Promise<T> {
    const previous = this.queues.get(name) ?? Promise.resolve();
    const next = previous.then(async () => {
      let runtime = this.runtimes.get(name);
      if (!runtime) {
        runtime = new BrowserRuntime(name, this.fixtures, {
          isolation: this.options.isolation,
          cpuTimeMs: this.options.cpuTimeMs,
        });
        this.runtimes.set(name, runtime);
        const started = runtime;
        this.options.cleanup.add(() => started.close());
      }
      if (!this.versions.has(name)) {
        const version = await runtime.start();
        this.versions.set(name, version);
        this.options.onStart?.(name, version);
      }
      return work(runtime);
    });
    this.queues.set(
      name,
      next.then(
        () => {},
        () => {},
      ),
    );
    return next;
  }
}

/** The time limits of runs in the reader's runtimes: the book's CPU time, and a wall-clock backstop. */
export function readerLimits(config: BookConfig, wallMs: number): { cpuTimeMs: number; timeoutMs: number } {
  return { cpuTimeMs: config.runner.timeLimitSeconds * 1000, timeoutMs: wallMs };
}
