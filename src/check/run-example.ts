import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CodeExample } from '../markdown/types.js';
import { judgeRun, type RunResult, type Verdict } from '../runner/outcome.js';
import { CleanupGroup } from './confine/cleanup.js';
import { runConfined, type ConfinedResult } from './confine/confined-run.js';
import { probeIsolation, type Isolation } from './confine/isolation.js';

export const EXAMPLE_TIMEOUT_MS = 10_000;
/** Output an example may print (stdout and stderr together): the book's longest is a few kilobytes. */
export const OUTPUT_LIMIT_BYTES = 1024 * 1024;
/** Memory an example may take, as address space beyond what its interpreter reserves to start. */
export const MEMORY_LIMIT_BYTES = 1024 ** 3;
/**
 * Node reserves about 0.7 GiB of address space before it runs a line, and WebAssembly (which its
 * own fetch() uses) reserves about 10 GiB per memory for guard regions: its address space is the
 * example's memory plus this, and its JavaScript heap is capped at the example's memory instead.
 */
const NODE_RESERVED_BYTES = 11 * 1024 ** 3;

export interface ExampleOutcome {
  ok: boolean;
  /** Why it failed, with a diff or the error output. */
  message?: string;
}

export interface RunOptions {
  /** The Python interpreter (default: python3 on PATH). */
  python?: string;
  /** How long an example may run, whatever it starts (default EXAMPLE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Bytes of output kept before the example is ended (default OUTPUT_LIMIT_BYTES). */
  outputLimitBytes?: number;
  /** Memory the example may take (default MEMORY_LIMIT_BYTES). */
  memoryLimitBytes?: number;
  /** How examples are confined (default: the best this machine allows, probed once). */
  isolation?: Isolation;
  /** The check's cleanups: a run registers its process tree and folder there while it lasts. */
  cleanup?: CleanupGroup;
}

interface Runner { file: string; command: string; args: string[]; env?: Record<string, string>; acceptExit?: number[]; reservedBytes?: number }

/** A pytest block's file name: its title when pytest would collect it, else test_example.py. */
const pytestFile = (title?: string) => (title && /^(test_\w+|\w+_test)\.py$/.test(title) ? title : 'test_example.py');

function runnerFor(example: CodeExample, options: RunOptions): Runner | undefined {
  const python = options.python ?? 'python3';
  if (example.lang === 'python' && example.pytest !== undefined) {
    const file = pytestFile(example.title);
    const extra = example.pytest.split(/\s+/).filter(Boolean);
    // Exit 1 means some tests failed, which an example may show on purpose; its output is compared.
    return { file, command: python, args: ['-X', 'utf8', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...extra, file], env: { COLUMNS: '80' }, acceptExit: [0, 1] };
  }
  if (example.lang === 'python') return { file: 'example.py', command: python, args: ['-X', 'utf8', 'example.py'] };
  if (example.lang === 'javascript') {
    const heapMiB = Math.floor((options.memoryLimitBytes ?? MEMORY_LIMIT_BYTES) / 1024 ** 2);
    return { file: 'example.mjs', command: process.execPath, args: [`--max-old-space-size=${heapMiB}`, 'example.mjs'], reservedBytes: NODE_RESERVED_BYTES };
  }
  return undefined;
}

export function isRunnable(example: CodeExample): boolean {
  return (example.lang === 'python' || example.lang === 'javascript') && example.norun === undefined;
}

const gib = (bytes: number) => `${Number((bytes / 1024 ** 3).toFixed(2))} GiB`;

/** Whether a failed run ran out of memory: Python's MemoryError, or Node's heap or buffers. */
function ranOutOfMemory(example: CodeExample, stderr: string): boolean {
  if (example.lang === 'python') return /^MemoryError\b/m.test(stderr.trimEnd().split('\n').slice(-1)[0] ?? '');
  return /JavaScript heap out of memory|Array buffer allocation failed|Fatal process out of memory/.test(stderr);
}

/** The verdict on a confined run: its output judged, or the limit it was ended at. */
function verdictOn(example: CodeExample, run: ConfinedResult, runner: Runner, limits: Limits): Verdict {
  if (run.ending === 'timeout') return { ok: false, message: `did not finish within ${limits.timeoutMs / 1000} s` };
  if (run.ending === 'output-limit') return { ok: false, message: `output exceeded ${limits.outputBytes} bytes: the check ended the example there` };
  const result: RunResult = { status: run.code ?? -1, stdout: run.stdout, stderr: run.stderr };
  const verdict = judgeRun(example, result, runner.acceptExit);
  if (!verdict.ok && ranOutOfMemory(example, run.stderr)) return { ok: false, message: `exceeded the memory limit (${gib(limits.memoryBytes)}):\n${verdict.message}` };
  return verdict;
}

const exampleEnv = (dir: string, extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8', NO_COLOR: '1', TZ: 'UTC', ...extra,
});

/**
 * Runs one example in a fresh temporary folder holding a copy of the book's fixtures, confined
 * (see confine/), and compares what it prints with the expected output block. While it runs, its
 * process tree and folder are in the check's cleanup group, so that a check that fails or is
 * interrupted ends and removes them.
 */
export async function runExample(example: CodeExample, fixturesDir: string, options: RunOptions = {}): Promise<ExampleOutcome> {
  const runner = runnerFor(example, options);
  if (!runner) return { ok: false, message: `cannot run ${example.lang} examples` };
  return runInFreshFolder(runner, example.code, fixturesDir, options, (run, limits) => verdictOn(example, run, runner, limits));
}

/**
 * Runs a Python program as an example runs (fresh folder with the fixtures, confined, limited) and
 * hands back what it printed, or how it was ended: the exercise check reads its report from it.
 */
export function runPythonProgram(code: string, fixturesDir: string, options: RunOptions = {}): Promise<ConfinedResult> {
  const runner: Runner = { file: 'exercise_check.py', command: options.python ?? 'python3', args: ['-X', 'utf8', 'exercise_check.py'] };
  return runInFreshFolder(runner, code, fixturesDir, options, (run) => run);
}

type Limits = { timeoutMs: number; outputBytes: number; memoryBytes: number };

async function runInFreshFolder<R>(runner: Runner, code: string, fixturesDir: string, options: RunOptions, judge: (run: ConfinedResult, limits: Limits) => R): Promise<R> {
  const cleanup = options.cleanup ?? new CleanupGroup();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pybook-example-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  const forgetDir = cleanup.add(removeDir);
  try {
    if (existsSync(fixturesDir)) cpSync(fixturesDir, dir, { recursive: true });
    writeFileSync(path.join(dir, runner.file), code);
    const limits = { timeoutMs: options.timeoutMs ?? EXAMPLE_TIMEOUT_MS, outputBytes: options.outputLimitBytes ?? OUTPUT_LIMIT_BYTES, memoryBytes: options.memoryLimitBytes ?? MEMORY_LIMIT_BYTES };
    const run = runConfined(runner.command, runner.args, {
      cwd: dir,
      env: exampleEnv(dir, runner.env),
      limits: { timeoutMs: limits.timeoutMs, outputBytes: limits.outputBytes, addressSpaceBytes: limits.memoryBytes + (runner.reservedBytes ?? 0) },
      isolation: options.isolation ?? probeIsolation(),
    });
    const forgetRun = cleanup.add(run.kill);
    try {
      return judge(await run.result, limits);
    } finally {
      forgetRun();
    }
  } finally {
    forgetDir();
    removeDir();
    if (!options.cleanup) cleanup.close();
  }
}
