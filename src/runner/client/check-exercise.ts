/**
 * Check: the exercise's tests run against the code of its starter block (the reader's edit, else
 * the starter) in the page's Python, as a run does (runner/client/run-controller.ts), within the
 * same time limit; the results are listed under the block (check.ts) and the status line says how
 * many tests pass. The outcome is given to `onResult`: the chapter's exercise is solved when every
 * test passed, and not solved (again) when one failed.
 */
import type { InterfaceStrings } from '../../shared/i18n/types.js';
import { currentCode, type IdleButton } from './block.js';
import { startRun } from './run-controller.js';
import { allPassed, exerciseProgram, parseExerciseReport } from '../../exercise/shared/harness.js';
import { showReport, summaryOf, type GoToLine } from '../../exercise/client/check.js';

export const checkButtonOf = (strings: InterfaceStrings): IdleButton => ({
  action: 'check',
  label: strings.exercise.check,
  name: strings.exercise.checkLabel,
});

export function checkBlock(
  block: HTMLElement,
  button: HTMLButtonElement,
  strings: InterfaceStrings,
  goToLine: GoToLine,
  onResult: (passed: boolean) => void,
): void {
  const t = strings.exercise;
  const region = block.querySelector<HTMLElement>('.exercise-results');
  const tests = block.getAttribute('data-exercise-tests') ?? '';
  let stdout = '';
  let stderr = '';
  startRun({
    block,
    button,
    idle: checkButtonOf(strings),
    lang: 'python',
    program: exerciseProgram(currentCode(block), tests),
    stdin: '',
    runningText: t.checking,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    truncated: () => {},
    exit() {
      const report = parseExerciseReport(stdout);
      if (region) showReport(region, report, stderr.trim(), t, goToLine);
      if (report) onResult(allPassed(report));
      return { text: summaryOf(report, t) };
    },
    cutShort(why, message) {
      if (!region) return;
      showReport(region, undefined, message, t);
      if (why === 'failed') {
        const retry = document.createElement('button');
        retry.type = 'button';
        retry.className = 'exercise-case-goto';
        retry.textContent = strings.runner.retry;
        retry.addEventListener('click', () => checkBlock(block, button, strings, goToLine, onResult));
        region.querySelector('.exercise-summary')?.append(' ', retry);
      }
    },
  });
}
