import type { Root } from 'mdast';
import type { VFile } from 'vfile';
import type { Node } from 'unist';
import { errorAt } from './located-error.js';

/**
 * How deep a chapter's elements may nest (components inside components, quotes inside quotes,
 * lists inside lists). A real chapter stays under a dozen levels. Far deeper trees are parsed
 * fine but overflow the stack later, in code that knows no line (React's server render: 800
 * nested <Answer>s), so they are refused here, at the line where the limit is passed.
 */
export const MAX_NESTING = 64;

interface AnyNode {
  type: string;
  children?: AnyNode[];
  position?: { start: { line: number; column: number } };
}

/** Walks the tree without recursion (the check must not overflow the stack it protects). */
export function remarkNestingLimit() {
  return (tree: Root, file: VFile) => {
    const stack: Array<[AnyNode, number]> = [[tree, 0]];
    while (stack.length) {
      const [node, depth] = stack.pop()!;
      if (depth > MAX_NESTING) {
        // The line is what an author finds; the column where the limit is passed goes in the message.
        const start = node.position?.start;
        const at = start
          ? { ...node, position: { start: { ...start, column: 1 }, end: { ...start, column: 1 } } }
          : node;
        throw errorAt(
          file,
          at as Node,
          `this chapter nests too deeply: elements are nested more than ${MAX_NESTING} levels deep${start ? ` from column ${start.column}` : ''} (components, quotes or lists inside each other): flatten the structure`,
        );
      }
      for (const child of node.children ?? []) stack.push([child, depth + 1]);
    }
  };
}
