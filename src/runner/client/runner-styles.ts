import { styleAdopter } from '../../client/core/adopted-styles.js';

/**
 * The runner's own styles, for what only it puts in the page (Stop, the editor, the reader's output,
 * the Input field, an exercise's results): adopted when the runner loads, so the first load's
 * stylesheet carries none of them.
 */
const RUNNER_CSS = `
.code-run .running { border-color: #8a4a4a; background: #5a2a2a; }
/* A running Run or Check is Stop: a square in place of its play or check mark. */
.code-run .running svg { display: none; }
.code-run .running::before { content: ""; width: 0.6rem; height: 0.6rem; border-radius: 1px; background: currentColor; }

/* The editor of an edited example (CodeMirror, client/runner/editor.ts), in the code block's colours. */
.code-editor .cm-editor { background: #1a212b; color: var(--code-fg); }
.code-editor .cm-editor.cm-focused { outline: 2px solid var(--code-bar); outline-offset: -2px; }
.code-editor .cm-scroller { padding: 0.6rem 0; font: var(--text-code)/1.65 var(--mono); }
.code-editor .cm-gutters { border: 0; background: transparent; color: var(--code-muted); }
.code-editor .cm-content { caret-color: var(--code-fg); }
.code-editor .cm-cursor { border-left-color: var(--code-fg); }
.code-editor .cm-selectionBackground, .code-editor .cm-focused .cm-selectionBackground { background: #3a4a60; }
.code-editor .cm-matchingBracket { background: #33415c; color: inherit; }
/* 16 px at least on phones: iOS zooms into smaller fields. */
@media (pointer: coarse), (max-width: 640px) { .code-editor .cm-scroller { font-size: 16px; } }
.code-run-output .code-output-label::before { background: var(--code-bar); }
[data-verdict="matches"] .code-run-verdict { color: #7fd49a; }
[data-verdict="differs"] .code-run-verdict { color: #f0b86a; }
.code-run-stderr { color: #f49a9a; }
.code-run-truncated { color: #f0b86a; font-style: italic; }
.code-run-hint { margin: 0; padding: 0.5rem 1rem 0.75rem; color: var(--code-fg); font-size: var(--text-sm); }
.code-run-hint a { color: #8cc4ff; }
.code-run-stdin-label { display: flex; flex-direction: column; gap: 0.3rem; padding: 0.45rem 0.75rem; border-top: 1px solid var(--code-line); color: var(--code-muted); font-size: var(--text-xs); }
/* 16 px at least: iOS zooms into smaller fields. */
.code-run-stdin { width: 100%; padding: 0.4rem 0.6rem; border: 1px solid #3b4656; border-radius: var(--rs); background: #1a212b; color: var(--code-fg); font: max(16px, var(--text-code))/1.5 var(--mono); resize: vertical; }

/* An exercise's Check results (client/exercise/check.ts): a summary, then each test case. */
.exercise-results { padding: 0.5rem 1rem 0.8rem; border-top: 1px solid var(--code-line); background: #151a22; color: var(--code-fg); font-size: var(--text-sm); }
.exercise-summary { margin: 0 0 0.4rem; font-weight: 600; color: #f0b86a; }
.exercise-summary[data-passed="true"], .exercise-case[data-passed="true"] { color: #7fd49a; }
.markdown .exercise-cases { display: grid; gap: 0.45rem; margin: 0; padding: 0; list-style: none; }
.markdown .exercise-case { margin: 0; }
.exercise-case[data-passed="false"] > .exercise-case-name { color: #f49a9a; }
.exercise-case-line { color: var(--code-muted); }
.exercise-case-values { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 0.75rem; margin: 0.25rem 0 0 1.2rem; }
.exercise-case-values dt { color: var(--code-muted); }
.exercise-case-values dd, .exercise-error, .exercise-case-error { margin: 0; font: var(--text-code)/1.5 var(--mono); white-space: pre-wrap; overflow-wrap: anywhere; }
.exercise-case-error { margin: 0.25rem 0 0 1.2rem; }

/* The reader's output: about 24 lines at most, then it scrolls; "Show all" lifts the limit. */
.code-run-output .code-output-pre { max-height: 24rem; overflow: auto; }
.code-run-output.show-all .code-output-pre { max-height: none; }
.code-run-more { display: flex; gap: 0.5rem; padding: 0 1rem 0.7rem; }
.code-run-more button, .exercise-case-goto, .code-run-undo { padding: 0.35rem 0.6rem; border: 1px solid #3b4656; border-radius: var(--rs); background: #262f3c; color: var(--code-fg); font: 600 var(--text-xs)/1 var(--sans); cursor: pointer; }
.code-run-more button:hover, .exercise-case-goto:hover, .code-run-undo:hover { filter: brightness(1.2); }
/* Reset's Undo, in the status line (client/runner/editing.ts). */
.code-run-undo { margin-left: 0.25rem; padding: 0.2rem 0.5rem; }
.exercise-case-goto { margin-left: 0.4rem; padding: 0.2rem 0.45rem; font-weight: 400; }
`;

/** Adds the runner's styles to the document (once). */
export const adoptRunnerStyles = styleAdopter(RUNNER_CSS);
