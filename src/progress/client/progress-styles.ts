import { styleAdopter } from '../../client/core/adopted-styles.js';

/**
 * The progress interface's styles (sidebar marks, the chapter's status, the home page's counts and
 * panel), adopted when its module loads, so the first load's stylesheet carries none of them.
 */
const PROGRESS_CSS = `
.sidebar-link[data-solved]::after { content: "✓"; margin-left: 0.35rem; color: light-dark(#1a7f37, #56d364); font-weight: 700; }
.learner-status { margin: 0.25rem 0 0; font-size: var(--text-sm); }
.learner-status[data-solved="true"] a { color: light-dark(#1a7f37, #56d364); font-weight: 600; }
.learner-part { margin: -0.25rem 0 0.5rem; color: var(--muted); font-size: var(--text-sm); }
.learner-continue { margin-left: 0.6rem; }
.learner-summary { font-weight: 600; }
.learner-actions { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.learner-message:empty { display: none; }
.learner-dropped pre { max-height: 16rem; overflow: auto; padding: 0.6rem 0.8rem; border-radius: var(--rs); background: var(--code-bg); color: var(--code-fg); font: var(--text-code)/1.5 var(--mono); }
`;

/** Adds the progress interface's styles to the document (once). */
export const adoptProgressStyles = styleAdopter(PROGRESS_CSS);
