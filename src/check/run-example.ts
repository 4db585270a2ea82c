import { chmodSync, cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CodeExample } from '../shared/model/chapter.js';
import { judgeRun, type RunResult, type Verdict } from '../runner/shared/outcome.js';
import { CleanupGroup } from '../confine/cleanup.js';
import { runConfined, type ConfinedResult } from '../confine/confined-run.js';
import { probeIsolation, processLimit, type Isolation } from '../confine/isolation.js';
import { SANDBOX_WORK, type ProcessLimits } from '../confine/sandbox.js';
import { examplePath, nodeReadable, probePython } from '../confine/interpreters.js';

/** CPU time an example may use (each of its processes): the book's time limit, which a busy machine does not change. */
export const EXAMPLE_CPU_MS = 10_000;
/**
 * Wall-clock time an example may take, whatever it starts: a backstop for one that waits or
 * sleeps. Generous, so that a loaded machine does not change a verdict: an example that needs a
 * second of CPU finishes well within it even when it gets a twentieth of a core.
 */
export const EXAMPLE_TIMEOUT_MS = 60_000;
/** The largest file an example may write, and the size of its private /tmp (its working folder is there). */
export const FILE_LIMIT_BYTES = 64 * 1024 ** 2;
export const TMP_LIMIT_BYTES = 256 * 1024 ** 2;
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
  /** How long an example may run by the clock, whatever it starts (default EXAMPLE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** CPU time each of its processes may use (default EXAMPLE_CPU_MS). */
  cpuTimeMs?: number;
  /** Bytes of output kept before the example is ended (default OUTPUT_LIMIT_BYTES). */
  outputLimitBytes?: number;
  /** Memory the example may take (default MEMORY_LIMIT_BYTES). */
  memoryLimitBytes?: number;
  /** How examples are confined (default: the best this machine allows, probed once). */
  isolation?: Isolation;
  /** The check's cleanups: a run registers its process tree and folder there while it lasts. */
  cleanup?: CleanupGroup;
}

interface Runner {
  file: string;
  command: string;
  args: string[];
  /** What the interpreter reads of the host (shown read-only in the sandbox). */
  readable: string[];
  env?: Record<string, string>;
  acceptExit?: number[];
  reservedBytes?: number;
}

/** The Python an example runs with: the command as given, and what it reads. */
function pythonOf(options: RunOptions): { command: string; readable: string[] } {
  const info = probePython(options.python ?? 'python3');
  // A launcher such as pyenv's shim needs its whole installation: run the interpreter itself,
  // unless a Python was named (it may be a wrapper with flags of its own).
  return { command: options.python ?? info.executable ?? 'python3', readable: info.readable };
}

/** A pytest block's file name: its title when pytest would collect it, else test_example.py. */
const pytestFile = (title?: string) => (title && /^(test_\w+|\w+_test)\.py$/.test(title) ? title : 'test_example.py');

function runnerFor(example: CodeExample, options: RunOptions): Runner | undefined {
  if (example.lang === 'python' && example.pytest !== undefined) {
    const { command, readable } = pythonOf(options);
    const file = pytestFile(example.title);
    const extra = example.pytest.split(/\s+/).filter(Boolean);
    // Exit 1 means some tests failed, which an example may show on purpose; its output is compared.
    return {
      file,
      command,
      readable,
      args: ['-X', 'utf8', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...extra, file],
      env: { COLUMNS: '80' },
      acceptExit: [0, 1],
    };
  }
  if (example.lang === 'python')
    return { file: 'example.py', ...pythonOf(options), args: ['-X', 'utf8', 'example.py'] };
  if (example.lang === 'javascript') {
    const heapMiB = Math.floor((options.memoryLimitBytes ?? MEMORY_LIMIT_BYTES) / 1024 ** 2);
    return {
      file: 'example.mjs',
      command: process.execPath,
      readable: nodeReadable(),
      args: [`--max-old-space-size=${heapMiB}`, 'example.mjs'],
      reservedBytes: NODE_RESERVED_BYTES,
    };
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
  if (run.ending === 'cpu-limit')
    return { ok: false, message: `used more than ${limits.cpuTimeMs / 1000} s of CPU time` };
  if (run.ending === 'output-limit')
    return { ok: false, message: `output exceeded ${limits.outputBytes} bytes: the check ended the example there` };
  const result: RunResult = { status: run.code ?? -1, stdout: run.stdout, stderr: run.stderr };
  const verdict = judgeRun(example, result, runner.acceptExit);
  if (!verdict.ok && ranOutOfMemory(example, run.stderr))
    return { ok: false, message: `exceeded the memory limit (${gib(limits.memoryBytes)}):\n${verdict.message}` };
  return verdict;
}

/** All the environment an example gets: nothing of the check's (tokens, paths, proxies) is passed on. */
const exampleEnv = (runner: Runner, home: string) => ({
  PATH: examplePath(runner.command),
  HOME: home,
  LANG: 'C.UTF-8',
  PYTHONDONTWRITEBYTECODE: '1',
  PYTHONIOENCODING: 'utf-8',
  NO_COLOR: '1',
  TZ: 'UTC',
  ...runner.env,
});

/**
 * Runs one example in a fresh temporary folder holding a copy of the book's fixtures, confined
 * (see confine/), and compares what it prints with the expected output block. While it runs, its
 * process tree and folder are in the check's cleanup group, so that a check that fails or is
 * interrupted ends and removes them.
 */
export async function runExample(
  example: CodeExample,
  fixturesDir: string,
  options: RunOptions = {},
): Promise<ExampleOutcome> {
  const runner = runnerFor(example, options);
  if (!runner) return { ok: false, message: `cannot run ${example.lang} examples` };
  return runInFreshFolder(runner, example.code, fixturesDir, options, (run, limits) =>
    verdictOn(example, run, runner, limits),
  );
}

/**
 * Runs a Python program as an example runs (fresh folder with the fixtures, confined, limited) and
 * hands back what it printed, or how it was ended: the exercise check reads its report from it.
 */
export function runPythonProgram(code: string, fixturesDir: string, options: RunOptions = {}): Promise<ConfinedResult> {
  const runner: Runner = { file: 'exercise_check.py', ...pythonOf(options), args: ['-X', 'utf8', 'exercise_check.py'] };
  return runInFreshFolder(runner, code, fixturesDir, options, (run) => run);
}

type Limits = { timeoutMs: number; cpuTimeMs: number; outputBytes: number; memoryBytes: number };

/** Lets the sandbox's user (nobody, when the check runs as root) read the example's files. */
function makeReadable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    if (entry.isDirectory()) chmodSync(file, 0o755);
    else if (entry.isFile()) chmodSync(file, 0o644);
  }
}

async function runInFreshFolder<R>(
  runner: Runner,
  code: string,
  fixturesDir: string,
  options: RunOptions,
  judge: (run: ConfinedResult, limits: Limits) => R,
): Promise<R> {
  const cleanup = options.cleanup ?? new CleanupGroup();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pybook-example-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  const forgetDir = cleanup.add(removeDir);
  try {
    // Regular files and folders only: a link is not followed, so nothing outside the folder is copied
    // (the check hands over a folder of validated copies of the book's fixtures, see check-book.ts).
    if (existsSync(fixturesDir))
      cpSync(fixturesDir, dir, { recursive: true, filter: (source) => !lstatSync(source).isSymbolicLink() });
    writeFileSync(path.join(dir, runner.file), code);
    makeReadable(dir);
    const limits: Limits = {
      timeoutMs: options.timeoutMs ?? EXAMPLE_TIMEOUT_MS,
      cpuTimeMs: options.cpuTimeMs ?? EXAMPLE_CPU_MS,
      outputBytes: options.outputLimitBytes ?? OUTPUT_LIMIT_BYTES,
      memoryBytes: options.memoryLimitBytes ?? MEMORY_LIMIT_BYTES,
    };
    const isolation = options.isolation ?? probeIsolation();
    const processLimits: ProcessLimits = {
      addressSpaceBytes: limits.memoryBytes + (runner.reservedBytes ?? 0),
      cpuSeconds: limits.cpuTimeMs / 1000,
      fileBytes: FILE_LIMIT_BYTES,
      processes: processLimit(isolation),
      tmpBytes: TMP_LIMIT_BYTES,
    };
    const run = runConfined(
      { argv: [runner.command, ...runner.args], input: dir, readable: runner.readable, limits: processLimits },
      {
        env: exampleEnv(runner, isolation.kind === 'sandbox' ? SANDBOX_WORK : dir),
        limits: { timeoutMs: limits.timeoutMs, outputBytes: limits.outputBytes },
        isolation,
      },
    );
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
