import type { Root } from 'hast';
import { visit } from '../visit.js';

/**
 * Source positions are needed while checking a chapter (errors point at lines), not after: the
 * compiled tree is kept in memory, hashed and passed between threads, so it goes without them.
 */
export function rehypeDropPositions() {
  return (tree: Root) => {
    visit(tree, (node) => { delete node.position; });
  };
}
