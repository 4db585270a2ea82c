import type { InterfaceStrings } from '../../i18n/types.js';
import { escapeHtml } from './html.js';
import { elementChildren, type ContentTemplate } from './render-content.js';

/** One block of a comparison: its HTML and the columns of its longest line (0 if not code). */
export interface ComparedBlock { html: string; width: number }

/**
 * JavaScript and Python side by side: the first block is the JavaScript one, the second the
 * Python one. Each column carries the columns of its block's longest line (--code-columns), from
 * which styles.css sizes the columns in proportion and wraps the Python one below the JavaScript
 * one when the pair does not fit. The build measures the lines, so the layout is final before the
 * page loads.
 */
export function compareHtml(blocks: ComparedBlock[], strings: InterfaceStrings): string {
  const labels = [strings.compareJavaScript, strings.comparePython];
  const columns = blocks.map((block, i) => `<div class="compare-column" style="--code-columns:${block.width}"><div class="compare-label">${escapeHtml(labels[i] ?? '')}</div>${block.html}</div>`);
  return `<div class="compare"><div class="compare-grid">${columns.join('')}</div></div>`;
}

/** `<Compare>`: its element children are the blocks (a code block's width is a property of its element). */
export const compare: ContentTemplate = (element, { strings }, render) =>
  compareHtml(elementChildren(element).map((child) => ({ html: render([child]), width: Number(child.properties.width ?? 0) })), strings);
