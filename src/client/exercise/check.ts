/**
 * The page's Check for an exercise: runs the exercise's tests against the code in the starter
 * block, in the reader's Python, and lists which cases pass and which fail (input, expected,
 * actual) in the block's live region. It knows nothing of how Python runs: the runner hands it a
 * `RunPython` (the seam to client/runner/, whose sandboxed runner is being rewritten), so the
 * harness program is the same one `pybook check` verifies (src/exercise/harness.ts).
 */
import { describeFailedCase } from '../../exercise/describe.js';
import { exerciseProgram, parseExerciseReport, type ExerciseReport } from '../../exercise/harness.js';

/** Runs one Python program afresh in the reader's runtime and gives back what it printed. */
export type RunPython = (program: string) => Promise<{ stdout: string; stderr: string }>;

/** Runs the tests of the exercise `block` (a starter code block) against `code`. */
export async function checkExercise(block: Element, code: string, run: RunPython): Promise<ExerciseReport | undefined> {
  const tests = block.getAttribute('data-exercise-tests') ?? '';
  const result = await run(exerciseProgram(code, tests));
  const report = parseExerciseReport(result.stdout);
  const region = block.querySelector('.exercise-results');
  if (region) showReport(region, report, result.stderr);
  return report;
}

/** The results as a list, one item per case: text only, so nothing the code prints becomes markup. */
export function showReport(region: Element, report: ExerciseReport | undefined, stderr: string): void {
  region.replaceChildren();
  const doc = region.ownerDocument;
  if (!report || report.error) {
    const pre = doc.createElement('pre');
    pre.textContent = report?.error ?? stderr.trim();
    region.append(pre);
    return;
  }
  const passed = report.cases.filter((c) => c.passed).length;
  const summary = doc.createElement('p');
  summary.textContent = `${passed} / ${report.cases.length}`;
  const list = doc.createElement('ul');
  for (const c of report.cases) {
    const item = doc.createElement('li');
    item.dataset.passed = String(c.passed);
    item.textContent = `${c.passed ? '✓' : '✗'} ${c.passed ? c.name : describeFailedCase(c)}`;
    list.append(item);
  }
  region.append(summary, list);
}
