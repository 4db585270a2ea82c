import type { ReactNode } from 'react';
import { useSite } from '../site-context.js';

/** An exercise's answer, closed until the reader opens it (native <details>: works without JavaScript). */
export function Answer({ summary, children }: { summary?: string; children?: ReactNode }) {
  const { strings } = useSite();
  return (
    <details className="answer">
      <summary>{summary ?? strings.showAnswer}</summary>
      <div className="answer-content">{children}</div>
    </details>
  );
}
