import type { InterfaceStrings } from '../../i18n/types.js';
import { escapeHtml } from './html.js';
import { elementChildren, type ContentTemplate } from './render-content.js';

/** Widths (in monospace columns) for which styles.css has a side-by-side rule; wider code always stacks. */
const FIT_STEPS = [30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80];

/** The smallest step that holds `columns`, or 'none' when no screen is wide enough. */
export function fitStep(columns: number): string {
  return String(FIT_STEPS.find((step) => columns <= step) ?? 'none');
}

/** One block of a comparison: its HTML and the columns of its longest line (0 if not code). */
export interface ComparedBlock { html: string; width: number }

/**
 * JavaScript and Python side by side: the first block is the JavaScript one, the second the
 * Python one. They stand side by side only where the comparison is wide enough for both blocks'
 * longest lines (data-fit, read by container queries in styles.css); otherwise JavaScript stands
 * above Python. The build measures the lines, so the layout is final before the page loads.
 */
export function compareHtml(blocks: ComparedBlock[], strings: InterfaceStrings): string {
  const labels = [strings.compareJavaScript, strings.comparePython];
  const widest = Math.max(0, ...blocks.map((block) => block.width));
  const columns = blocks.map((block, i) => `<div class="compare-column"><div class="compare-label">${escapeHtml(labels[i] ?? '')}</div>${block.html}</div>`);
  return `<div class="compare" data-fit="${fitStep(widest)}"><div class="compare-grid">${columns.join('')}</div></div>`;
}

/** `<Compare>`: its element children are the blocks (a code block's width is a property of its element). */
export const compare: ContentTemplate = (element, { strings }, render) =>
  compareHtml(elementChildren(element).map((child) => ({ html: render([child]), width: Number(child.properties.width ?? 0) })), strings);
