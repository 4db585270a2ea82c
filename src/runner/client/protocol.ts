/**
 * The messages between the page, the sandbox document (sandbox-host.ts, an opaque-origin iframe)
 * and the worker it starts for one run. Whatever comes from the sandbox is untrusted (the
 * reader's program runs there): the page and the host check every message against these shapes
 * and against the run's state before acting on it.
 */
import type { OutputLimits } from './output-batch.js';

export type RunnerLanguage = 'python' | 'javascript';

/**
 * How often a running sandbox says it is alive. Its own main thread does nothing else (the
 * program runs in its worker), so only a dead process is silent; the page allows many beats.
 */
export const HEARTBEAT_MS = 500;
export const SILENCE_MS = 4000;

export interface FixtureFile {
  name: string;
  bytes: ArrayBuffer;
}

/**
 * What a sandbox needs to start its runtime: the worker's code and, for Python, the names of
 * Pyodide's files, which follow one FileMessage each as the page's downloads finish (the worker
 * starts on the first while the others still download).
 */
export interface StartMessage {
  type: 'start';
  lang: RunnerLanguage;
  /** The worker script's source (the sandbox cannot fetch it: its CSP forbids any request). */
  script: string;
  /** The Pyodide files that will follow (pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm, python_stdlib.zip). */
  fileNames?: string[];
  /** Pyodide's lock file (its header). */
  lock?: string;
  fixtures?: FixtureFile[];
}

/**
 * One of Pyodide's files, as a Blob: posting one to a sandbox passes a reference to the
 * browser's copy, which the worker reads (no ~25 MB copied through the page's main thread).
 */
export interface FileMessage {
  type: 'file';
  name: string;
  file: Blob;
}

export interface RunMessage {
  type: 'run';
  id: number;
  source: string;
  stdin: string;
  limits: OutputLimits;
}

/** Page -> sandbox host. */
export type ToSandbox = StartMessage | FileMessage | RunMessage;

/** Sandbox host -> page. `id` is the run's, for everything after 'ready'. */
export type FromSandbox =
  | { type: 'frame-ready' }
  | { type: 'ready' }
  | { type: 'load-failed'; message: string }
  | { type: 'running'; id: number }
  /** Sent every HEARTBEAT_MS while a run runs: a sandbox that falls silent has died (out of memory). */
  | { type: 'alive'; id: number }
  | { type: 'stdout' | 'stderr'; id: number; text: string }
  | { type: 'truncated'; id: number }
  /** `reusable`: the sandbox may run another program (its interpreter is reset between runs). */
  | { type: 'exit'; id: number; status: number; reusable: boolean };

/** Worker -> sandbox host (the host adds the run id). */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'load-failed'; message: string }
  | { type: 'stdout' | 'stderr'; text: string }
  | { type: 'truncated' }
  | { type: 'exit'; status: number; reusable: boolean };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The worker message, if `value` is one of the shapes a worker may send; undefined otherwise. */
export function workerMessage(value: unknown): FromWorker | undefined {
  if (!isObject(value)) return undefined;
  switch (value.type) {
    case 'ready':
    case 'truncated':
      return { type: value.type };
    case 'load-failed':
      return typeof value.message === 'string' ? { type: 'load-failed', message: value.message } : undefined;
    case 'stdout':
    case 'stderr':
      return typeof value.text === 'string' ? { type: value.type, text: value.text } : undefined;
    case 'exit':
      // Only an explicit true makes a sandbox run again: anything else retires it.
      return Number.isInteger(value.status)
        ? { type: 'exit', status: value.status as number, reusable: value.reusable === true }
        : undefined;
    default:
      return undefined;
  }
}

/** The sandbox message, if `value` is one of the shapes the host may send; undefined otherwise. */
export function sandboxMessage(value: unknown): FromSandbox | undefined {
  if (!isObject(value)) return undefined;
  if (value.type === 'frame-ready') return { type: 'frame-ready' };
  if ((value.type === 'running' || value.type === 'alive') && Number.isInteger(value.id))
    return { type: value.type, id: value.id as number };
  const message = workerMessage(value);
  if (!message || message.type === 'ready' || message.type === 'load-failed') return message;
  return Number.isInteger(value.id) ? { ...message, id: value.id as number } : undefined;
}
