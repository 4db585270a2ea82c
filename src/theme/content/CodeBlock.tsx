import { useSite } from '../site-context.js';

interface Props {
  lang?: string;
  title?: string;
  output?: string;
  raises?: string;
  /** The highlighted lines, escaped by the build (src/markdown/highlight.ts). */
  codeHtml?: string;
  /** Columns of the longest line (Compare reads it). */
  width?: number;
}

/**
 * A highlighted code block (the lines come highlighted from the build). The copy and word-wrap
 * buttons are plain buttons that the client wires up with one delegated listener, so the page
 * does not ship its code a second time as JavaScript.
 */
export function CodeBlock({ lang = 'text', title, output, codeHtml = '' }: Props) {
  const { strings } = useSite();
  return (
    <div className="code-block" data-lang={lang}>
      {title && <div className="code-block-title">{title}</div>}
      <div className="code-block-body">
        <pre className="code-pre" tabIndex={0}>
          <code className={`language-${lang}`} dangerouslySetInnerHTML={{ __html: codeHtml }} />
        </pre>
        <div className="code-buttons">
          <button type="button" className="code-button" data-code-action="wrap" aria-label={strings.toggleWordWrap} title={strings.toggleWordWrap} aria-pressed="false">
            <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false"><path fill="currentColor" d="M4 19h6v-2H4v2zM20 5H4v2h16V5zm-3 6H4v2h13.25a1.75 1.75 0 0 1 0 3.5H15V14l-3 3 3 3v-1.5h2a3.75 3.75 0 0 0 0-7.5z" /></svg>
          </button>
          <button type="button" className="code-button" data-code-action="copy" aria-label={strings.copyCode} title={strings.copy} data-copied-label={strings.copied}>
            <span className="code-button-label">{strings.copy}</span>
          </button>
        </div>
      </div>
      {output !== undefined && (
        <div className="code-output">
          <div className="code-output-label">{strings.codeOutput}</div>
          <pre className="code-output-pre" tabIndex={0}><code>{output}</code></pre>
        </div>
      )}
    </div>
  );
}
