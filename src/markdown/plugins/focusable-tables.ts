import type { Root } from 'hast';
import { visit } from '../visit.js';

/**
 * Wide tables scroll sideways on small screens; a scrollable region must be reachable by
 * keyboard (WCAG 2.1.1), so every table gets tabindex="0".
 */
export function rehypeFocusableTables() {
  return (tree: Root) => {
    visit(tree, 'element', (node) => {
      if (node.tagName === 'table') node.properties = { ...node.properties, tabIndex: 0 };
    });
  };
}
