import { Children, type ReactNode } from 'react';
import { useSite } from '../site-context.js';

/** JavaScript and Python side by side: the first child is the JavaScript block, the second the Python one. */
export function Compare({ children }: { children?: ReactNode }) {
  const { strings } = useSite();
  const blocks = Children.toArray(children).filter((c) => typeof c !== 'string');
  const labels = [strings.compareJavaScript, strings.comparePython];
  return (
    <div className="compare">
      {blocks.map((block, i) => (
        <div className="compare-column" key={i}>
          <div className="compare-label">{labels[i] ?? ''}</div>
          {block}
        </div>
      ))}
    </div>
  );
}
