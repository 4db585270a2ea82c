/**
 * Run: the block's code (the reader's edit, else the book's) runs in the page's sandbox, its
 * output appears in the reader's output panel as it comes, and the panel says what the run came
 * to against the book's output (matches, differs, raised, timed out, stopped, truncated). An
 * exercise's code runs the same way, so the reader sees what it prints before they Check it.
 */
import type { RunnerStrings } from '../../shared/i18n/types.js';
import { blockParts, bookOutput, currentCode, fill, langOf, runButtonOf, type IdleButton } from './block.js';
import { OutputPanel } from './output-panel.js';
import type { RunnerLanguage } from './protocol.js';
import { startRun } from './run-controller.js';
import { missingModule, readPastInput, verdictOf } from './run-verdict.js';

/** The Input field of a Python block (what input() and sys.stdin read), made when the code reads input. */
export function stdinField(block: HTMLElement, t: RunnerStrings, make: boolean): HTMLTextAreaElement | undefined {
  let field = block.querySelector<HTMLTextAreaElement>('textarea.code-run-stdin');
  if (!field && make) {
    const label = document.createElement('label');
    label.className = 'code-run-stdin-label';
    const text = document.createElement('span');
    text.textContent = t.stdinLabel;
    field = document.createElement('textarea');
    field.className = 'code-run-stdin';
    field.rows = 2;
    field.spellcheck = false;
    label.append(text, field);
    blockParts(block).bar.after(label);
  }
  return field ?? undefined;
}

export const readsInput = (lang: RunnerLanguage, code: string) =>
  lang === 'python' && /\binput\s*\(|sys\.stdin/.test(code);

/** Runs the code of `block`; `button` is the Run that was pressed (an exercise has one beside Check). */
export function runExample(block: HTMLElement, button: HTMLButtonElement, t: RunnerStrings, pipChapter?: string): void {
  const lang = langOf(block);
  const source = currentCode(block);
  const stdin = stdinField(block, t, readsInput(lang, source))?.value ?? '';
  const output = new OutputPanel(block, t);
  output.startRun();
  let stdout = '';
  let stderr = '';
  const idle: IdleButton = button.classList.contains('exercise-run-button')
    ? { ...runButtonOf(t, lang), name: t.runExerciseLabel }
    : runButtonOf(t, lang);
  startRun({
    block,
    button,
    idle,
    lang,
    program: source,
    stdin,
    runningText: t.running,
    // Kept for the verdict up to what is shown: an endless print loop must not fill the memory.
    stdout(text) {
      if (!output.truncated) stdout += text;
      output.append(text, 'stdout');
    },
    stderr(text) {
      if (!output.truncated) stderr += text;
      output.append(text, 'stderr');
    },
    truncated: () => output.truncate(),
    exit(exitStatus) {
      const verdict = verdictOf(
        { lang, status: exitStatus, stdout, stderr, truncated: output.truncated },
        bookOutput(block),
        block.dataset.raises,
      );
      const label = verdict === 'matches' ? t.matches : verdict === 'differs' ? t.differs : '';
      output.setVerdict(verdict, label);
      explain(block, lang, stderr, output, t, pipChapter);
      const text =
        verdict === 'truncated'
          ? t.finishedTruncated
          : verdict === 'raised'
            ? t.raised
            : label
              ? fill(t.finished, { verdict: label })
              : fill(t.finishedStatus, { status: exitStatus });
      // Screen readers hear the verdict, then the start of the output.
      return { text, spoken: (stdout + stderr).trim().slice(0, 300) || undefined };
    },
    cutShort(why, message) {
      output.setVerdict(why);
      // A runtime that could not start says why where the output would be, with a second try.
      if (why === 'failed') output.failed(message, t.retry, () => runExample(block, button, t, pipChapter));
    },
  });
}

/** One sentence under a failed run when the page knows why: a package it does not have, input it was not given. */
function explain(
  block: HTMLElement,
  lang: RunnerLanguage,
  stderr: string,
  output: OutputPanel,
  t: RunnerStrings,
  pipChapter: string | undefined,
): void {
  if (lang !== 'python') return;
  const module = missingModule(stderr);
  if (module) {
    output.hint(
      fill(t.moduleMissing, { module }),
      pipChapter ? { href: pipChapter, text: t.moduleMissingLink } : undefined,
    );
  } else if (readPastInput(stderr)) {
    output.hint(t.inputMissing);
    stdinField(block, t, true)!.focus();
  }
}
