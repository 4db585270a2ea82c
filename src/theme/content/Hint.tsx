import type { ReactNode } from 'react';
import { useContent } from './content-context.js';

/**
 * A hint for an exercise, closed until the reader opens it; a chapter may give one or two before
 * the <Answer>, each a step towards it (native <details>: works without JavaScript; it looks like
 * the answer, whose styles it shares).
 */
export function Hint({ summary, children }: { summary?: string; children?: ReactNode }) {
  const { strings } = useContent();
  return (
    <details className="answer hint">
      <summary>{summary ?? strings.showHint}</summary>
      <div className="answer-content">{children}</div>
    </details>
  );
}
Hint.attributes = ['summary'];
