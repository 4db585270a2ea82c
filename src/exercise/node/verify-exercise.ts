import type { Exercise } from '../shared/collect.js';
import { describeFailures } from '../shared/describe.js';
import { allPassed, exerciseProgram, parseExerciseReport, type ExerciseReport } from '../shared/harness.js';

/** What a runtime made of one harness program: its output, or the limit it was ended at. */
export type ProgramRun = { stdout: string; stderr: string } | 'timeout' | 'cpu-limit' | 'output-limit';

/** The limits a run was held to, for the message when it reached one. */
export interface RunLimits {
  timeoutMs: number;
  cpuTimeMs?: number;
}

export interface ExerciseFailure {
  line: number;
  message: string;
}

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
export async function verifyExercise(
  exercise: Exercise,
  run: (program: string) => Promise<ProgramRun>,
  where: string,
  limits: RunLimits,
  options: { traps?: boolean } = {},
): Promise<ExerciseFailure[]> {
  const failures: ExerciseFailure[] = [];
  const reportOf = async (candidate: string, line: number, part: string) => {
    const result = await run(exerciseProgram(candidate, exercise.tests));
    const ended = unreadable(result, limits);
    const report = ended || typeof result === 'string' ? undefined : parseExerciseReport(result.stdout);
    if (!report) {
      const detail =
        ended ?? (typeof result === 'string' ? result : result.stderr.trim().split('\n').slice(-3).join('\n'));
      failures.push({
        line,
        message: `the exercise's ${part} with its tests gave no report ${where}:\n${indent(detail)}`,
      });
    }
    return report;
  };
  const answer = await reportOf(exercise.answer, exercise.lines.answer, 'answer');
  if (answer && !allPassed(answer)) {
    failures.push({
      line: exercise.lines.answer,
      message: `the exercise's answer fails its tests ${where}:\n${indent(describeFailures(answer))}`,
    });
  }
  const starter = await reportOf(exercise.starter, exercise.lines.starter, 'starter code');
  if (starter?.error) {
    failures.push({
      line: exercise.lines.starter,
      message: `the exercise's starter code must load, then fail a test; ${where} it did not load:\n${indent(starter.error)}`,
    });
  } else if (starter && allPassed(starter)) {
    failures.push({
      line: exercise.lines.starter,
      message: `the exercise's starter code passes every test ${where}: the tests must catch what the exercise is about (a stub or the naive version should fail one)`,
    });
  }
  if (options.traps && answer) failures.push(...(await checkTraps(exercise, reportOf, answer, starter, where)));
  return failures;
}

/**
 * The traps' promise: each plausible wrong answer kept beside the exercise fails at least one
 * test, and each test fails for at least one wrong answer (the starter code or a trap), so that no
 * test is there for nothing and every test is known to catch a mistake a reader makes.
 */
async function checkTraps(
  exercise: Exercise,
  reportOf: (candidate: string, line: number, part: string) => Promise<ExerciseReport | undefined>,
  answer: ExerciseReport,
  starter: ExerciseReport | undefined,
  where: string,
): Promise<ExerciseFailure[]> {
  const failures: ExerciseFailure[] = [];
  const wrong = starter && !starter.error ? [starter] : [];
  for (const trap of exercise.traps) {
    const report = await reportOf(trap.code, trap.line, 'trap');
    if (!report) continue;
    if (report.error)
      failures.push({
        line: trap.line,
        message: `this exercise="trap" must load, then fail a test; ${where} it did not load:\n${indent(report.error)}`,
      });
    else if (allPassed(report))
      failures.push({
        line: trap.line,
        message: `this exercise="trap" passes every test ${where}: the tests do not catch the mistake it makes`,
      });
    else wrong.push(report);
  }
  const uncaught = answer.cases.filter(
    (test) => !wrong.some((report) => report.cases.some((c) => c.name === test.name && !c.passed)),
  );
  for (const test of uncaught) {
    failures.push({
      line: exercise.lines.tests,
      message: `${test.name} fails for no wrong answer kept beside the exercise ${where} (neither the starter code nor an exercise="trap"): add a plausible wrong answer it catches`,
    });
  }
  return failures;
}
