import { lineDiff, normalizeOutput } from './diff.js';

/** What one run of an example printed, and how it ended. */
export interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** What the book shows for an example: its output block and the error it ends with, if any. */
export interface Expectation {
  lang: string;
  output?: string;
  raises?: string;
  pytest?: string;
}

export type Verdict = { ok: true } | { ok: false; message: string };

/** pytest's closing line ends with how long the run took: the one part of its output that varies. */
const withoutDurations = (text: string) => text.replace(/ in \d+(?:\.\d+)?s\b/g, ' in <duration>');

/** The error line a run ended with: Python's is the traceback's last line; Node's (or the sandbox's, after "Uncaught ") starts with the error's name. */
function errorLineOf(expectation: Expectation, stderr: string): string | undefined {
  const lines = stderr
    .split('\n')
    .map((l) => l.trimEnd())
    .filter(Boolean)
    .map((l) => l.replace(/^Uncaught /, ''));
  return expectation.lang === 'python' ? lines[lines.length - 1] : lines.find((l) => l.startsWith(expectation.raises!));
}

/**
 * Whether a run shows what the book shows: the same output (trailing spaces and blank lines
 * aside) and, for an example that raises, that error as its last line. Shared by `pybook check`
 * (every runtime) and the page, which marks a reader's run as matching the book or not.
 */
export function judgeRun(expectation: Expectation, result: RunResult, acceptExit: number[] = [0]): Verdict {
  let actual = result.stdout;
  if (expectation.raises) {
    const errorLine = errorLineOf(expectation, result.stderr);
    if (result.status === 0 || !errorLine?.startsWith(expectation.raises)) {
      const last = result.stderr
        .split('\n')
        .map((l) => l.trimEnd())
        .filter(Boolean)
        .slice(-1)[0];
      return {
        ok: false,
        message: `expected it to raise ${expectation.raises}, but it ${result.status === 0 ? 'finished without error' : `failed with: ${last ?? '(no message)'}`}`,
      };
    }
    actual = actual ? `${actual.replace(/\n?$/, '\n')}${errorLine}` : errorLine;
  } else if (!acceptExit.includes(result.status)) {
    return {
      ok: false,
      message: `exited with code ${result.status}:\n${result.stderr.trimEnd().split('\n').slice(-8).join('\n')}`,
    };
  }
  const normalize =
    expectation.pytest !== undefined ? (text: string) => withoutDurations(normalizeOutput(text)) : normalizeOutput;
  if (expectation.output !== undefined && normalize(actual) !== normalize(expectation.output)) {
    return {
      ok: false,
      message: `output differs (- expected, + actual):\n${lineDiff(normalizeOutput(expectation.output), normalizeOutput(actual))}`,
    };
  }
  return { ok: true };
}
