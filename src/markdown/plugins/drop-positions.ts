import type { Root } from 'mdast';
import { visit } from '../visit.js';

/**
 * Source positions are needed while checking a chapter (errors point at lines), not after: the
 * compiled tree is kept in memory, hashed and passed between threads, so it goes without them.
 * They are dropped from the checked mdast, before it becomes hast, so that mdast-util-to-hast
 * does not copy them onto every hast node first (two points per node).
 */
export function dropPositions(tree: Root): void {
  visit(tree, (node) => {
    delete node.position;
  });
}
