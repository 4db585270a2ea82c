import type { InterfaceStrings } from '../../i18n/types.js';
import { attribute, escapeHtml } from './html.js';
import { stringProperty, type ContentContext, type ContentTemplate } from './render-content.js';

export interface CodeBlockProps {
  lang?: string;
  title?: string;
  output?: string;
  raises?: string;
  /** The highlighted lines, escaped by the build (src/markdown/highlight/). */
  codeHtml?: string;
  /** The example's key in the browser-check record: Run is offered when it passed there. */
  exampleKey?: string;
  /** Why the example cannot run in a browser (the author's norun or nobrowser reason). */
  cannotRun?: string;
  /** A pytest file: pytest is not in the browser's Python. */
  cannotRunPytest?: boolean;
}

const LANGUAGE_NAMES: Record<string, string> = { python: 'Python', javascript: 'JavaScript' };

const RUN_ICON = '<svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false"><path fill="currentColor" d="M4 2.5v11l9-5.5z"></path></svg>';
const WRAP_ICON = '<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false"><path fill="currentColor" d="M4 19h6v-2H4v2zM20 5H4v2h16V5zm-3 6H4v2h13.25a1.75 1.75 0 0 1 0 3.5H15V14l-3 3 3 3v-1.5h2a3.75 3.75 0 0 0 0-7.5z"></path></svg>';

/**
 * The Run bar of a Python or JavaScript example: Run and Edit (wired up lazily, see
 * client/runner/), or a note saying why it runs only on the reader's computer.
 */
function runBar({ lang, exampleKey, cannotRun, cannotRunPytest }: CodeBlockProps, strings: InterfaceStrings, runnable: ReadonlySet<string>): string {
  const language = LANGUAGE_NAMES[lang ?? ''];
  if (!language) return '';
  const t = strings.runner;
  if (exampleKey && runnable.has(exampleKey)) {
    return `<div class="code-run" data-run-lang="${escapeHtml(lang!)}">`
      + `<button type="button" class="code-run-button" data-code-action="run" aria-label="${escapeHtml(t.runLabel.replace('{language}', language))}" aria-keyshortcuts="Control+Enter Meta+Enter">`
      + `${RUN_ICON}<span class="code-run-label">${escapeHtml(t.run)}</span></button>`
      + `<button type="button" class="code-run-secondary" data-code-action="edit" aria-label="${escapeHtml(t.editLabel)}">${escapeHtml(t.edit)}</button>`
      + '<span class="code-run-status" role="status"></span></div>';
  }
  const reason = cannotRunPytest ? t.cannotRunPytest : cannotRun !== undefined ? cannotRun : exampleKey ? t.notChecked : undefined;
  if (reason === undefined) return '';
  return '<div class="code-run code-run-unavailable">'
    + `<span class="code-run-note" tabindex="0" data-reason="${escapeHtml(reason)}" aria-label="${escapeHtml(`${t.cannotRun}: ${reason}`)}">${escapeHtml(t.cannotRun)}</span></div>`;
}

/**
 * A highlighted code block (the lines come highlighted from the build). The copy and word-wrap
 * buttons are plain buttons that the client wires up with one delegated listener, so the page
 * does not ship its code a second time as JavaScript.
 */
export function codeBlockHtml(props: CodeBlockProps, { strings, runnable }: Pick<ContentContext, 'strings' | 'runnable'>): string {
  const { lang = 'text', title, output, raises, codeHtml = '' } = props;
  return `<div class="code-block"${attribute('data-lang', lang)}${attribute('data-raises', raises)}>`
    + (title ? `<div class="code-block-title">${escapeHtml(title)}</div>` : '')
    + `<div class="code-block-body"><pre class="code-pre" tabindex="0"><code class="language-${escapeHtml(lang)}">${codeHtml}</code></pre>`
    + '<div class="code-buttons">'
    + `<button type="button" class="code-button" data-code-action="wrap" aria-label="${escapeHtml(strings.toggleWordWrap)}" title="${escapeHtml(strings.toggleWordWrap)}" aria-pressed="false">${WRAP_ICON}</button>`
    + `<button type="button" class="code-button" data-code-action="copy" aria-label="${escapeHtml(strings.copyCode)}" title="${escapeHtml(strings.copy)}" data-copied-label="${escapeHtml(strings.copied)}"><span class="code-button-label">${escapeHtml(strings.copy)}</span></button>`
    + '</div></div>'
    + runBar({ ...props, lang }, strings, runnable)
    + (output === undefined ? '' : `<div class="code-output"><div class="code-output-label">${escapeHtml(strings.codeOutput)}</div><pre class="code-output-pre" tabindex="0"><code>${escapeHtml(output)}</code></pre></div>`)
    + '</div>';
}

/** The `CodeBlock` element that the markdown pipeline makes of a fenced code block (see to-hast-handlers.ts). */
export const codeBlock: ContentTemplate = (element, context) => {
  const cannotRunPytest = element.properties.cannotRunPytest === true;
  return codeBlockHtml({
    lang: stringProperty(element, 'lang'),
    title: stringProperty(element, 'title'),
    output: stringProperty(element, 'output'),
    raises: stringProperty(element, 'raises'),
    codeHtml: stringProperty(element, 'codeHtml'),
    exampleKey: stringProperty(element, 'exampleKey'),
    cannotRun: stringProperty(element, 'cannotRun'),
    cannotRunPytest,
  }, context);
};
