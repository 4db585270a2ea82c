import { judgeRun } from '../shared/outcome.js';

/** How a reader's run ended, as the panel's data-verdict and the status line say it. */
export type RunVerdict = 'matches' | 'differs' | 'raised' | 'truncated' | 'none';

export interface FinishedRun {
  lang: string;
  status: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
}

/**
 * The verdict of a run that ended by itself: an exception the book does not show is told apart
 * from a changed print, and a run whose output was cut is not compared at all.
 */
export function verdictOf(run: FinishedRun, expected: string | undefined, raises: string | undefined): RunVerdict {
  if (run.truncated) return 'truncated';
  if (expected === undefined && !raises) return run.status === 0 ? 'none' : 'raised';
  if (judgeRun({ lang: run.lang, output: expected, raises }, run).ok) return 'matches';
  return run.status === 0 ? 'differs' : 'raised';
}

/** The last line of a Python traceback, when it is a missing module: its top-level name. */
export function missingModule(stderr: string): string | undefined {
  return /^ModuleNotFoundError: No module named '([\w]+)[\w.]*'\s*$/m.exec(lastLine(stderr))?.[1];
}

/** Whether the program ended reading past the end of its input (input() with nothing to read). */
export const readPastInput = (stderr: string) => lastLine(stderr).startsWith('EOFError');

const lastLine = (text: string) => text.trimEnd().split('\n').pop() ?? '';
