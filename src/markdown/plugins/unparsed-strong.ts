import type { Root } from 'mdast';
import type { VFile } from 'vfile';
import { visit } from '../visit.js';
import { warn } from './located-error.js';

/** A "**" pair with text between it on one line, still in a text node: the parser did not take it as bold. */
const UNPARSED_STRONG = /\*\*(?=\S)[^*\n]*?\S\*\*/;

/**
 * Warns about **bold** that ends up on the page with its asterisks. CommonMark only lets "**"
 * open or close next to punctuation when its other side is whitespace or punctuation, so
 * `**区域设置（locale）**的` stays literal, a trap that full-width punctuation makes common in
 * Chinese. (A lone "**", as in `**kwargs`, is left alone.)
 */
export function remarkUnparsedStrong() {
  return (tree: Root, file: VFile) => {
    visit(tree, 'text', (node) => {
      const match = UNPARSED_STRONG.exec(node.value);
      if (!match) return;
      warn(
        file,
        node,
        `${match[0]} is shown with its asterisks, not in bold: next to punctuation such as （ or ）, a "**" must have a space or punctuation on its outer side (write **区域设置**（locale）的, not **区域设置（locale）**的)`,
      );
    });
  };
}
