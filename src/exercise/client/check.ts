/**
 * The results of an exercise's Check, listed in the block's results region: which test cases pass
 * and which fail (input, expected, actual), the line of the reader's code a failure was raised
 * at, with a button that puts the editor there. The check itself runs in the page's Python
 * (runner/client/check-exercise.ts), through the harness `pybook check` verifies (shared/harness.ts).
 */
import { type ExerciseCase, type ExerciseReport } from '../shared/harness.js';
import type { ExerciseStrings } from '../../shared/i18n/types.js';

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));

/** Puts the reader's editor (opening it if needed) on a line of their code. */
export type GoToLine = (line: number) => void;

export function summaryOf(report: ExerciseReport | undefined, t: ExerciseStrings): string {
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
  goToLine?: GoToLine,
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
    if (report?.errorLine) summary.append(' ', codeLine(report.errorLine, t, element, goToLine));
    region.append(element('pre', 'exercise-error', report?.error ?? problem));
    return;
  }
  summary.dataset.passed = String(report.cases.every((c) => c.passed));
  const list = element('ul', 'exercise-cases');
  for (const c of report.cases) list.append(caseItem(c, t, element, goToLine));
  region.append(list);
}

type MakeElement = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
) => HTMLElementTagNameMap[K];

/** "(your code, line 7)" and a button that puts the editor there. */
function codeLine(line: number, t: ExerciseStrings, element: MakeElement, goToLine?: GoToLine): HTMLElement {
  const span = element('span', 'exercise-case-line exercise-code-line', `(${fill(t.atCodeLine, { line })})`);
  if (goToLine) {
    const button = element('button', 'exercise-case-goto', fill(t.goToLine, { line }));
    button.type = 'button';
    button.addEventListener('click', () => goToLine(line));
    span.append(button);
  }
  return span;
}

function caseItem(c: ExerciseCase, t: ExerciseStrings, element: MakeElement, goToLine?: GoToLine): HTMLLIElement {
  const item = element('li', 'exercise-case');
  item.dataset.passed = String(c.passed);
  const head = element('span', 'exercise-case-name', `${c.passed ? '✓' : '✗'} ${c.name}`);
  item.append(head);
  if (c.passed) return item;
  if (c.line !== undefined)
    head.append(element('span', 'exercise-case-line', ` (${fill(t.atLine, { line: c.line })})`));
  if (c.codeLine) head.append(' ', codeLine(c.codeLine, t, element, goToLine));
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
