/**
 * The parts of a server-rendered code block the runner works with (CodeBlock.tsx renders them):
 * its Run bar (main button, Edit/Reset, status line), its code, the book's output.
 */
import type { RunnerStrings } from '../../shared/i18n/types.js';
import { editorIn } from './editors.js';
import type { RunnerLanguage } from './protocol.js';

export const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));

export const languageName = (lang: string) => (lang === 'python' ? 'Python' : 'JavaScript');

export function blockParts(block: Element) {
  return {
    bar: block.querySelector<HTMLElement>('.code-run')!,
    status: block.querySelector<HTMLElement>('.code-run-status')!,
    pre: block.querySelector<HTMLElement>('.code-pre')!,
    /** Run or Check (Stop while running). */
    mainButton: block.querySelector<HTMLButtonElement>(
      '.code-run > button[data-code-action=run], .code-run > button[data-code-action=stop], .code-run > button[data-code-action=check]',
    )!,
    /** An exercise's Run, beside its Check (Stop while running). */
    exerciseRun: block.querySelector<HTMLButtonElement>('.code-run > button.exercise-run-button'),
    editButton: block.querySelector<HTMLButtonElement>(
      'button[data-code-action=edit], button[data-code-action=reset]',
    )!,
  };
}

export const langOf = (block: Element): RunnerLanguage =>
  block.querySelector<HTMLElement>('.code-run')?.dataset.runLang === 'javascript' ? 'javascript' : 'python';

/** The book's code of the block. */
export function bookCode(block: Element): string {
  return (block.querySelector('.code-pre code')?.textContent ?? '').replace(/\n$/, '');
}

/** The code the reader sees: the editor's text when editing, else the book's. */
export const currentCode = (block: Element) => editorIn(block)?.value() ?? bookCode(block);

/** The output panel the book shows (not the reader's run). */
export function bookOutput(block: Element): string | undefined {
  const pre = block.querySelector(':scope > .code-output:not(.code-run-output) .code-output-pre');
  return pre ? (pre.textContent ?? '') : undefined;
}

/** What a run button is when nothing runs: its action, its label and its accessible name. */
export interface IdleButton {
  action: 'run' | 'check';
  label: string;
  name: string;
}

export const runButtonOf = (t: RunnerStrings, lang: RunnerLanguage): IdleButton => ({
  action: 'run',
  label: t.run,
  name: fill(t.runLabel, { language: languageName(lang) }),
});

/** A run button: Stop while its run goes on, else what it is when idle. */
export function setButton(button: HTMLButtonElement, running: boolean, idle: IdleButton, t: RunnerStrings): void {
  button.dataset.codeAction = running ? 'stop' : idle.action;
  button.setAttribute('aria-label', running ? t.stop : idle.name);
  button.querySelector('.code-run-label')!.textContent = running ? t.stop : idle.label;
  button.classList.toggle('running', running);
}

/** The chapter a block belongs to (ChapterPage marks its article with the slug). */
export const chapterOf = (block: Element) => block.closest<HTMLElement>('[data-chapter]')?.dataset.chapter;

/** The examples of a page that offer Run or Check, in order (the ones whose code a reader can edit). */
export const editableBlocks = (root: ParentNode) =>
  Array.from(root.querySelectorAll<HTMLElement>('.markdown .code-block')).filter((block) =>
    block.querySelector('.code-run[data-run-lang]'),
  );
