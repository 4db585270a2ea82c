import type { CSSProperties } from 'react';
import { useContent } from './content-context.js';

interface Props {
  lang?: string;
  title?: string;
  output?: string;
  raises?: string;
  /** The highlighted lines, escaped by the build (src/markdown/highlight/). */
  codeHtml?: string;
  /** Columns of the longest line (Compare reads it). */
  width?: number;
  /**
   * How many lines the code has. The stylesheet sizes the code from it while its layout is deferred
   * (content-visibility: auto), so that the page does not move when the code is laid out: a guess
   * of the wrong height moved an Edit button from under a finger between touchend and click.
   */
  lines?: number;
  /** The example's key in the browser-check record: Run is offered when it passed there. */
  exampleKey?: string;
  /** Why the example cannot run in a browser (the author's norun or nobrowser reason). */
  cannotRun?: string;
  /** A pytest file: pytest is not in the browser's Python. */
  cannotRunPytest?: boolean;
  /** Which part of the chapter's exercise this block is (starter, tests, answer). */
  exercisePart?: string;
  /** On the starter block: the exercise's tests, which Check runs against the reader's code. */
  exerciseTests?: string;
  /** On the starter block: the exercise's key in the browser-check record (Check is offered when it passed there). */
  exerciseKey?: string;
}

const LANGUAGE_NAMES: Record<string, string> = { python: 'Python', javascript: 'JavaScript' };

/**
 * The Run bar of a Python or JavaScript example: Run and Edit (wired up lazily, see
 * client/runner/), or a note saying why it runs only on the reader's computer.
 */
function RunBar({
  lang,
  exampleKey,
  cannotRun,
  cannotRunPytest,
}: Pick<Props, 'lang' | 'exampleKey' | 'cannotRun' | 'cannotRunPytest'>) {
  const { strings, runnable } = useContent();
  const language = LANGUAGE_NAMES[lang ?? ''];
  if (!language) return null;
  const t = strings.runner;
  if (exampleKey && runnable.has(exampleKey)) {
    return (
      <div className="code-run" data-run-lang={lang}>
        <button
          type="button"
          className="code-run-button"
          data-code-action="run"
          aria-label={t.runLabel.replace('{language}', language)}
          aria-keyshortcuts="Control+Enter Meta+Enter"
        >
          <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M4 2.5v11l9-5.5z" />
          </svg>
          <span className="code-run-label">{t.run}</span>
        </button>
        <button type="button" className="code-run-secondary" data-code-action="edit" aria-label={t.editLabel}>
          {t.edit}
        </button>
        <span className="code-run-status" role="status" />
      </div>
    );
  }
  const reason = cannotRunPytest
    ? t.cannotRunPytest
    : cannotRun !== undefined
      ? cannotRun
      : exampleKey
        ? t.notChecked
        : undefined;
  if (reason === undefined) return null;
  return (
    <div className="code-run code-run-unavailable">
      <span className="code-run-note" tabIndex={0} data-reason={reason} aria-label={`${t.cannotRun}: ${reason}`}>
        {t.cannotRun}
      </span>
    </div>
  );
}

/**
 * The bar of an exercise's starter code: Check runs the exercise's tests on the code (the reader's
 * edit, else the book's) in the page's Python, and the results region below lists each case
 * (exercise/client/); Run beside it runs the code itself, to see what it prints. Offered only when
 * `pybook check` verified the exercise in that Python.
 */
function ExerciseBar({ exerciseKey }: Pick<Props, 'exerciseKey'>) {
  const { strings, runnable } = useContent();
  if (!exerciseKey || !runnable.has(exerciseKey)) return null;
  const t = strings.exercise;
  return (
    <>
      <div className="code-run exercise-run" data-run-lang="python">
        <button
          type="button"
          className="code-run-button"
          data-code-action="check"
          aria-label={t.checkLabel}
          aria-keyshortcuts="Control+Enter Meta+Enter"
        >
          <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M6.2 11.4 2.8 8l-1.1 1.1 4.5 4.5 8.1-8.1-1.1-1.1z" />
          </svg>
          <span className="code-run-label">{t.check}</span>
        </button>
        <button
          type="button"
          className="code-run-secondary exercise-run-button"
          data-code-action="run"
          aria-label={strings.runner.runExerciseLabel}
        >
          <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M4 2.5v11l9-5.5z" />
          </svg>
          <span className="code-run-label">{strings.runner.run}</span>
        </button>
        <button
          type="button"
          className="code-run-secondary"
          data-code-action="edit"
          aria-label={strings.runner.editLabel}
        >
          {strings.runner.edit}
        </button>
        <span className="code-run-status" role="status" />
      </div>
      <section className="exercise-results" aria-label={t.results} hidden />
    </>
  );
}

/**
 * The `CodeBlock` element that the markdown pipeline makes of a fenced code block (see
 * src/markdown/to-hast-handlers.ts). A highlighted code block (the lines come highlighted from the build). The copy and word-wrap
 * buttons are plain buttons that the client wires up with one delegated listener, so the page
 * does not ship its code a second time as JavaScript.
 */
export function CodeBlock({
  lang = 'text',
  title,
  output,
  raises,
  codeHtml = '',
  lines,
  exampleKey,
  cannotRun,
  cannotRunPytest,
  exercisePart,
  exerciseTests,
  exerciseKey,
}: Props) {
  const { strings } = useContent();
  return (
    <div
      className="code-block"
      data-lang={lang}
      data-raises={raises}
      data-exercise={exercisePart}
      data-exercise-tests={exerciseTests}
    >
      {title ? (
        <div className="code-block-title">{title}</div>
      ) : (
        exercisePart === 'tests' && <div className="code-block-title">{strings.exercise.testsLabel}</div>
      )}
      <div className="code-block-body">
        <pre className="code-pre" tabIndex={0} style={lines ? ({ '--lines': lines } as CSSProperties) : undefined}>
          <code className={`language-${lang}`} dangerouslySetInnerHTML={{ __html: codeHtml }} />
        </pre>
        <div className="code-buttons">
          <button
            type="button"
            className="code-button"
            data-code-action="wrap"
            aria-label={strings.toggleWordWrap}
            title={strings.toggleWordWrap}
            aria-pressed="false"
          >
            <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
              <path
                fill="currentColor"
                d="M4 19h6v-2H4v2zM20 5H4v2h16V5zm-3 6H4v2h13.25a1.75 1.75 0 0 1 0 3.5H15V14l-3 3 3 3v-1.5h2a3.75 3.75 0 0 0 0-7.5z"
              />
            </svg>
          </button>
          <button
            type="button"
            className="code-button"
            data-code-action="copy"
            aria-label={strings.copyCode}
            title={strings.copy}
            data-copied-label={strings.copied}
          >
            <span className="code-button-label">{strings.copy}</span>
          </button>
        </div>
      </div>
      {exerciseTests === undefined ? (
        <RunBar lang={lang} exampleKey={exampleKey} cannotRun={cannotRun} cannotRunPytest={cannotRunPytest} />
      ) : (
        <ExerciseBar exerciseKey={exerciseKey} />
      )}
      {output !== undefined && (
        <div className="code-output">
          <div className="code-output-label">{strings.codeOutput}</div>
          <pre className="code-output-pre" tabIndex={0}>
            <code>{output}</code>
          </pre>
        </div>
      )}
    </div>
  );
}
