import { formatWithOptions, inspect } from 'node-inspect-extracted';

/**
 * Runs a JavaScript example the way `node example.mjs` would, inside whatever realm this code
 * was loaded into: a Worker in an opaque-origin iframe on the page, a fresh `vm` context under
 * `pybook check`. Both hosts load the very same bundle (client/runner/sandbox-worker.ts), so what
 * the check vouches for is what the reader runs.
 *
 * - console prints as Node's does (Node's own util.inspect, extracted for browsers);
 * - the program may use top-level await; it has no require, process or module imports;
 * - it has finished when its code has run and no timer is left, as Node exits when its event
 *   loop is empty; an error nothing catches ends it with status 1, as in Node.
 */
export interface SandboxOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

type TimerHandle = ReturnType<typeof setTimeout>;
type Callback = (...args: unknown[]) => unknown;

/** Node prints an uncaught error as its inspected form; the stack's frames name sandbox internals, so they go. */
function describeUncaught(error: unknown): string {
  const text = inspect(error);
  return text
    .split('\n')
    .filter((line) => !/^\s+at\s/.test(line))
    .join('\n')
    .replace(/\n\s*\n/g, '\n');
}

let reportToCurrentRun: ((error: unknown) => void) | undefined;

/** A host's hook for errors only the realm sees (an unhandled promise rejection): they end the run as in Node. */
export function reportUncaught(error: unknown): void {
  reportToCurrentRun?.(error);
}

export function runSandboxed(source: string, output: SandboxOutput): Promise<number> {
  const realm = globalThis as unknown as Record<string, Callback>;
  const realSetTimeout = realm.setTimeout as unknown as typeof setTimeout;
  const realClearTimeout = realm.clearTimeout;
  const realSetInterval = realm.setInterval as unknown as typeof setInterval;
  const realClearInterval = realm.clearInterval;

  return new Promise<number>((resolve) => {
    let finished = false;
    let mainDone = false;
    const live = new Set<TimerHandle>();
    const finish = (status: number) => {
      if (finished) return;
      finished = true;
      for (const handle of live) {
        realClearTimeout(handle);
        realClearInterval(handle);
      }
      live.clear();
      resolve(status);
    };
    const uncaught = (error: unknown) => {
      if (finished) return;
      output.stderr(`Uncaught ${describeUncaught(error)}\n`);
      finish(1);
    };
    reportToCurrentRun = uncaught;
    // Runs after pending microtasks: finished once the code is done and no timer is left.
    const settleLater = () =>
      realSetTimeout(() => {
        if (mainDone && live.size === 0) finish(0);
      }, 0);
    const guarded = (callback: Callback, args: unknown[]) => {
      if (finished) return;
      try {
        const result = callback(...args);
        if (result && typeof (result as Promise<unknown>).then === 'function')
          (result as Promise<unknown>).then(undefined, uncaught);
      } catch (error) {
        uncaught(error);
      }
    };

    const timers = {
      setTimeout: (callback: Callback, ms?: number, ...args: unknown[]) => {
        const handle: TimerHandle = realSetTimeout(() => {
          live.delete(handle);
          guarded(callback, args);
          settleLater();
        }, ms);
        live.add(handle);
        return handle;
      },
      clearTimeout: (handle: TimerHandle) => {
        live.delete(handle);
        realClearTimeout(handle);
        settleLater();
      },
      setInterval: (callback: Callback, ms?: number, ...args: unknown[]) => {
        const handle: TimerHandle = realSetInterval(() => guarded(callback, args), ms);
        live.add(handle);
        return handle;
      },
      clearInterval: (handle: TimerHandle) => {
        live.delete(handle);
        realClearInterval(handle);
        settleLater();
      },
    };

    let indent = '';
    const counts = new Map<string, number>();
    const started = new Map<string, number>();
    const print =
      (stream: 'stdout' | 'stderr') =>
      (...args: unknown[]) => {
        if (finished) return;
        const text = formatWithOptions({}, ...args);
        output[stream](`${indent ? text.replace(/^/gm, indent) : text}\n`);
      };
    const log = print('stdout');
    const error = print('stderr');
    const console = {
      log,
      info: log,
      debug: log,
      error,
      warn: error,
      trace: error,
      dir: (value: unknown, options?: object) => log(inspect(value, { customInspect: false, ...options })),
      group: (...labels: unknown[]) => {
        if (labels.length) log(...labels);
        indent += '  ';
      },
      groupCollapsed: (...labels: unknown[]) => console.group(...labels),
      groupEnd: () => {
        indent = indent.slice(2);
      },
      assert: (condition: unknown, ...args: unknown[]) => {
        if (!condition) error(args.length ? `Assertion failed: ${formatWithOptions({}, ...args)}` : 'Assertion failed');
      },
      count: (label = 'default') => {
        const n = (counts.get(label) ?? 0) + 1;
        counts.set(label, n);
        log(`${label}: ${n}`);
      },
      countReset: (label = 'default') => {
        counts.delete(label);
      },
      time: (label = 'default') => {
        started.set(label, performance.now());
      },
      timeEnd: (label = 'default') => {
        log(`${label}: ${(performance.now() - (started.get(label) ?? performance.now())).toFixed(3)}ms`);
        started.delete(label);
      },
    };

    let program: (...args: unknown[]) => Promise<unknown>;
    try {
      // Strict like an ES module; an async body so that top-level await works.
      const AsyncFunction = (async () => {}).constructor as new (...params: string[]) => typeof program;
      program = new AsyncFunction(
        'console',
        'setTimeout',
        'clearTimeout',
        'setInterval',
        'clearInterval',
        `"use strict";\n${source}`,
      );
    } catch (syntaxError) {
      uncaught(syntaxError);
      return;
    }
    program(console, timers.setTimeout, timers.clearTimeout, timers.setInterval, timers.clearInterval).then(() => {
      mainDone = true;
      settleLater();
    }, uncaught);
  });
}
