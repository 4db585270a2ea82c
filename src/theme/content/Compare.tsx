import { Children, isValidElement, type ReactNode } from 'react';
import { useContent } from './content-context.js';

/** Widths (in monospace columns) for which the stylesheet has a side-by-side rule; wider code always stacks. */
const FIT_STEPS = [30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80];

/** The smallest step that holds `columns`, or 'none' when no screen is wide enough. */
export function fitStep(columns: number): string {
  return String(FIT_STEPS.find((step) => columns <= step) ?? 'none');
}

/**
 * JavaScript and Python side by side: the first child is the JavaScript block, the second the
 * Python one. They stand side by side only where the comparison is wide enough for both blocks'
 * longest lines (data-fit, read by container queries in the stylesheet); otherwise JavaScript stands
 * above Python. The build measures the lines, so the layout is final before the page loads.
 */
export function Compare({ children }: { children?: ReactNode }) {
  const { strings } = useContent();
  const blocks = Children.toArray(children).filter((c) => typeof c !== 'string');
  const labels = [strings.compareJavaScript, strings.comparePython];
  const widest = Math.max(0, ...blocks.map((block) => (isValidElement<{ width?: number | string }>(block) ? Number(block.props.width ?? 0) : 0)));
  return (
    <div className="compare" data-fit={fitStep(widest)}>
      <div className="compare-grid">
        {blocks.map((block, i) => (
          <div className="compare-column" key={i}>
            <div className="compare-label">{labels[i] ?? ''}</div>
            {block}
          </div>
        ))}
      </div>
    </div>
  );
}
Compare.attributes = [] as string[];
