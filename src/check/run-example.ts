import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CodeExample } from '../markdown/types.js';
import { judgeRun } from '../runner/outcome.js';

export const EXAMPLE_TIMEOUT_MS = 10_000;
/** How long an exited example's background processes may keep its output open. */
const EXIT_GRACE_MS = 1_000;

export interface ExampleOutcome {
  ok: boolean;
  /** Why it failed, with a diff or the error output. */
  message?: string;
}

export interface RunOptions {
  /** The Python interpreter (default: python3 on PATH). */
  python?: string;
  /** How long an example may run (default EXAMPLE_TIMEOUT_MS). */
  timeoutMs?: number;
}

interface Runner { file: string; command: string; args: string[]; env?: Record<string, string>; acceptExit?: number[] }

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
  if (example.lang === 'javascript') return { file: 'example.mjs', command: process.execPath, args: ['example.mjs'] };
  return undefined;
}

export function isRunnable(example: CodeExample): boolean {
  return (example.lang === 'python' || example.lang === 'javascript') && example.norun === undefined;
}

function run(command: string, args: string[], cwd: string, extraEnv: Record<string, string>, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: a time-out kills the example and everything it started.
      detached: true,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, LANG: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8', NO_COLOR: '1', TZ: 'UTC', ...extraEnv },
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => { timedOut = true; killGroup(); }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.on('error', (error) => { clearTimeout(timer); reject(error); });
    // After the example exits, its output is read to the end ('close'); a background process it
    // left holding the pipes would keep that from happening, so its group is ended after a grace period.
    let grace: NodeJS.Timeout | undefined;
    child.on('exit', () => { if (!timedOut) grace = setTimeout(killGroup, EXIT_GRACE_MS); });
    child.on('close', (code) => {
      clearTimeout(timer);
      clearTimeout(grace);
      killGroup(); // whatever it started in the background and left running
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/**
 * Runs one example in a fresh temporary folder holding a copy of the book's fixtures and
 * compares what it prints with the expected output block.
 */
export async function runExample(example: CodeExample, fixturesDir: string, options: RunOptions = {}): Promise<ExampleOutcome> {
  const runner = runnerFor(example, options);
  if (!runner) return { ok: false, message: `cannot run ${example.lang} examples` };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pybook-example-'));
  try {
    if (existsSync(fixturesDir)) cpSync(fixturesDir, dir, { recursive: true });
    writeFileSync(path.join(dir, runner.file), example.code);
    const timeoutMs = options.timeoutMs ?? EXAMPLE_TIMEOUT_MS;
    const result = await run(runner.command, runner.args, dir, runner.env ?? {}, timeoutMs);
    if (result.timedOut) return { ok: false, message: `did not finish within ${timeoutMs / 1000} s` };
    return judgeRun(example, { status: result.code ?? -1, stdout: result.stdout, stderr: result.stderr }, runner.acceptExit);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
