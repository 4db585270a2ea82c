import type { ExerciseCase, ExerciseReport } from './harness.js';

/** One failed case in a line or three: its name, the input, expected and actual values, or the error. */
export function describeFailedCase(c: ExerciseCase): string {
  const head = `${c.name}${c.line !== undefined ? ` (tests line ${c.line})` : ''}: `;
  if (c.input !== undefined && c.expected !== undefined)
    return `${head}${c.input}\n    expected ${c.expected}\n    actual   ${c.actual}`;
  if (c.expression !== undefined)
    return `${head}assert ${c.expression} failed${c.error && c.error !== 'AssertionError' ? ` (${c.error})` : ''}`;
  return `${head}${c.error ?? 'failed'}`;
}

/** Every failure of a report, one case after another. */
export function describeFailures(report: ExerciseReport): string {
  if (report.error) return report.error;
  if (report.cases.length === 0) return 'no test function ran';
  return report.cases
    .filter((c) => !c.passed)
    .map(describeFailedCase)
    .join('\n');
}
