import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CodeExample } from '../markdown/types.js';
import { lineDiff, normalizeOutput } from './diff.js';

export const EXAMPLE_TIMEOUT_MS = 10_000;

export interface ExampleOutcome {
  ok: boolean;
  /** Why it failed, with a diff or the error output. */
  message?: string;
}

interface Runner { file: string; command: string; args: (file: string) => string[] }
const RUNNERS: Record<string, Runner> = {
  python: { file: 'example.py', command: 'python3', args: (f) => ['-X', 'utf8', f] },
  javascript: { file: 'example.mjs', command: process.execPath, args: (f) => [f] },
};

export function isRunnable(example: CodeExample): boolean {
  return example.lang in RUNNERS && example.norun === undefined;
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, LANG: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8', NO_COLOR: '1', TZ: 'UTC' },
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, EXAMPLE_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.on('error', (error) => { clearTimeout(timer); reject(error); });
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr, timedOut }); });
  });
}

/**
 * Runs one example in a fresh temporary folder holding a copy of the book's fixtures and
 * compares what it prints with the expected output block.
 */
export async function runExample(example: CodeExample, fixturesDir: string): Promise<ExampleOutcome> {
  const runner = RUNNERS[example.lang];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pybook-example-'));
  try {
    if (existsSync(fixturesDir)) cpSync(fixturesDir, dir, { recursive: true });
    writeFileSync(path.join(dir, runner.file), example.code);
    const result = await run(runner.command, runner.args(runner.file), dir);
    if (result.timedOut) return { ok: false, message: `did not finish within ${EXAMPLE_TIMEOUT_MS / 1000} s` };
    const stderrLines = result.stderr.split('\n').map((l) => l.trimEnd()).filter(Boolean);
    let actual = result.stdout;
    if (example.raises) {
      const errorLine = example.lang === 'python' ? stderrLines[stderrLines.length - 1] : stderrLines.find((l) => l.startsWith(example.raises!));
      if (result.code === 0 || !errorLine?.startsWith(example.raises)) {
        return { ok: false, message: `expected it to raise ${example.raises}, but it ${result.code === 0 ? 'finished without error' : `failed with: ${stderrLines.slice(-1)[0] ?? '(no message)'}`}` };
      }
      actual = actual ? `${actual.replace(/\n?$/, '\n')}${errorLine}` : errorLine;
    } else if (result.code !== 0) {
      return { ok: false, message: `exited with code ${result.code}:\n${result.stderr.trimEnd().split('\n').slice(-8).join('\n')}` };
    }
    if (example.output !== undefined && normalizeOutput(actual) !== normalizeOutput(example.output)) {
      return { ok: false, message: `output differs (- expected, + actual):\n${lineDiff(normalizeOutput(example.output), normalizeOutput(actual))}` };
    }
    return { ok: true };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
