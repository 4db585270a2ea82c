import { Children, isValidElement, type CSSProperties, type ReactNode } from 'react';
import { useContent } from './content-context.js';

/**
 * JavaScript and Python side by side: the first child is the JavaScript block, the second the
 * Python one. Each column carries the columns of its block's longest line (--code-columns), from
 * which the stylesheet sizes the columns in proportion and wraps the Python one below the
 * JavaScript one when the pair does not fit. The build measures the lines, so the layout is final
 * before the page loads.
 */
export function Compare({ children }: { children?: ReactNode }) {
  const { strings } = useContent();
  const blocks = Children.toArray(children).filter((c) => typeof c !== 'string');
  const labels = [strings.compareJavaScript, strings.comparePython];
  const widthOf = (block: unknown) =>
    isValidElement<{ width?: number | string }>(block) ? Number(block.props.width ?? 0) : 0;
  return (
    <div className="compare">
      <div className="compare-grid">
        {blocks.map((block, i) => (
          <div className="compare-column" key={i} style={{ '--code-columns': widthOf(block) } as CSSProperties}>
            <div className="compare-label">{labels[i] ?? ''}</div>
            {block}
          </div>
        ))}
      </div>
    </div>
  );
}
Compare.attributes = [] as string[];
