import type { ReactNode } from 'react';
import { useContent } from './content-context.js';

/** An exercise's answer, closed until the reader opens it (native <details>: works without JavaScript). */
export function Answer({ summary, children }: { summary?: string; children?: ReactNode }) {
  const { strings } = useContent();
  return (
    <details className="answer">
      <summary>{summary ?? strings.showAnswer}</summary>
      <div className="answer-content">{children}</div>
    </details>
  );
}
Answer.attributes = ['summary'];
