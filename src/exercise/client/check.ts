/**
 * The page's Check for an exercise: runs the exercise's tests against the code in the starter
 * block, in the reader's Python, and lists which cases pass and which fail (input, expected,
 * actual) in the block's results region. It knows nothing of how Python runs: the runner hands it
 * a `RunPython` (client/runner/ui.ts runs it in a fresh sandbox), so the harness program is the
 * same one `pybook check` verifies (src/exercise/harness.ts).
 */
import { exerciseProgram, parseExerciseReport, type ExerciseCase, type ExerciseReport } from '../shared/harness.js';
import type { ExerciseStrings } from '../../shared/i18n/types.js';

/** Runs one Python program afresh in the reader's runtime and gives back what it printed; rejects with a sentence when it could not finish. */
export type RunPython = (program: string) => Promise<{ stdout: string; stderr: string }>;

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));

/**
 * Runs the tests of the exercise `block` (a starter code block) against `code`, shows the results
 * and gives back the sentence the block's status line says.
 */
export async function checkExercise(block: Element, code: string, run: RunPython, t: ExerciseStrings): Promise<string> {
  const tests = block.getAttribute('data-exercise-tests') ?? '';
  const region = block.querySelector<HTMLElement>('.exercise-results');
  let report: ExerciseReport | undefined;
  let problem: string;
  try {
    const result = await run(exerciseProgram(code, tests));
    report = parseExerciseReport(result.stdout);
    problem = result.stderr.trim();
  } catch (error) {
    problem = (error as Error).message;
  }
  if (region) showReport(region, report, problem, t);
  return summaryOf(report, t);
}

function summaryOf(report: ExerciseReport | undefined, t: ExerciseStrings): string {
  if (!report) return t.noReport;
  if (report.error) return t.didNotLoad;
  const passed = report.cases.filter((c) => c.passed).length;
  const total = report.cases.length;
  return fill(passed === total ? t.allPassed : t.someFailed, { passed, total });
}

/**
 * The results, one list item per case. Text only (textContent), so nothing the reader's code
 * prints or raises becomes markup.
 */
export function showReport(
  region: HTMLElement,
  report: ExerciseReport | undefined,
  problem: string,
  t: ExerciseStrings,
): void {
  const doc = region.ownerDocument;
  const element = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string) => {
    const made = doc.createElement(tag);
    made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  };
  region.replaceChildren();
  region.hidden = false;
  const summary = element('p', 'exercise-summary', summaryOf(report, t));
  region.append(summary);
  if (!report || report.error) {
    summary.dataset.passed = 'false';
    region.append(element('pre', 'exercise-error', report?.error ?? problem));
    return;
  }
  summary.dataset.passed = String(report.cases.every((c) => c.passed));
  const list = element('ul', 'exercise-cases');
  for (const c of report.cases) list.append(caseItem(c, t, element));
  region.append(list);
}

function caseItem(
  c: ExerciseCase,
  t: ExerciseStrings,
  element: <K extends keyof HTMLElementTagNameMap>(
    tag: K,
    className: string,
    text?: string,
  ) => HTMLElementTagNameMap[K],
): HTMLLIElement {
  const item = element('li', 'exercise-case');
  item.dataset.passed = String(c.passed);
  const head = element('span', 'exercise-case-name', `${c.passed ? '✓' : '✗'} ${c.name}`);
  item.append(head);
  if (c.passed) return item;
  if (c.line !== undefined)
    head.append(element('span', 'exercise-case-line', ` (${fill(t.atLine, { line: c.line })})`));
  if (c.input !== undefined && c.expected !== undefined) {
    const values = element('dl', 'exercise-case-values');
    for (const [label, value] of [
      [t.input, c.input],
      [t.expected, c.expected],
      [t.actual, c.actual ?? ''],
    ] as const) {
      values.append(element('dt', '', label), element('dd', '', value));
    }
    item.append(values);
  } else {
    item.append(
      element(
        'pre',
        'exercise-case-error',
        c.expression !== undefined
          ? `assert ${c.expression}${c.error && c.error !== 'AssertionError' ? `\n${c.error}` : ''}`
          : (c.error ?? ''),
      ),
    );
  }
  return item;
}
