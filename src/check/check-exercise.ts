import type { Exercise } from '../exercise/collect.js';
import { describeFailures } from '../exercise/describe.js';
import { allPassed, exerciseProgram, parseExerciseReport } from '../exercise/harness.js';

/** What a runtime made of one harness program: its output, or the limit it was ended at. */
export type ProgramRun = { stdout: string; stderr: string } | 'timeout' | 'cpu-limit' | 'output-limit';

/** The limits a run was held to, for the message when it reached one. */
export interface RunLimits { timeoutMs: number; cpuTimeMs?: number }

export interface ExerciseFailure { line: number; message: string }

const indent = (text: string) => text.replace(/^/gm, '  ');

function unreadable(run: ProgramRun, limits: RunLimits): string | undefined {
  if (run === 'timeout') return `did not finish within ${limits.timeoutMs / 1000} s`;
  if (run === 'cpu-limit') return `used more than ${(limits.cpuTimeMs ?? 0) / 1000} s of CPU time`;
  if (run === 'output-limit') return 'printed more than the output limit';
  return undefined;
}

/**
 * The exercise's promise, checked in one runtime (`where` names it): the book's answer passes every
 * test, and the starter code loads but fails at least one, so the tests catch what the exercise is about.
 */
export async function verifyExercise(exercise: Exercise, run: (program: string) => Promise<ProgramRun>, where: string, limits: RunLimits): Promise<ExerciseFailure[]> {
  const failures: ExerciseFailure[] = [];
  const reportOf = async (candidate: string, line: number, part: string) => {
    const result = await run(exerciseProgram(candidate, exercise.tests));
    const ended = unreadable(result, limits);
    const report = ended || typeof result === 'string' ? undefined : parseExerciseReport(result.stdout);
    if (!report) {
      const detail = ended ?? (typeof result === 'string' ? result : result.stderr.trim().split('\n').slice(-3).join('\n'));
      failures.push({ line, message: `the exercise's ${part} with its tests gave no report ${where}:\n${indent(detail)}` });
    }
    return report;
  };
  const answer = await reportOf(exercise.answer, exercise.lines.answer, 'answer');
  if (answer && !allPassed(answer)) {
    failures.push({ line: exercise.lines.answer, message: `the exercise's answer fails its tests ${where}:\n${indent(describeFailures(answer))}` });
  }
  const starter = await reportOf(exercise.starter, exercise.lines.starter, 'starter code');
  if (starter?.error) {
    failures.push({ line: exercise.lines.starter, message: `the exercise's starter code must load, then fail a test; ${where} it did not load:\n${indent(starter.error)}` });
  } else if (starter && allPassed(starter)) {
    failures.push({ line: exercise.lines.starter, message: `the exercise's starter code passes every test ${where}: the tests must catch what the exercise is about (a stub or the naive version should fail one)` });
  }
  return failures;
}
