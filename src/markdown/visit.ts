import type { Nodes as HastNodes, Parents as HastParents, Root as HastRoot } from 'hast';
import type { Nodes as MdastNodes, Parents as MdastParents, Root as MdastRoot } from 'mdast';

/**
 * Tree walking for the markdown plugins, with unist-util-visit's contract (visitor(node, index,
 * parent); return SKIP, EXIT, or [action, index] to continue at another index after changing the
 * parent's children) but without its ancestor lists and per-node closures. Chapters are walked
 * about ten times each per compile, so that overhead was a tenth of a cold build.
 */
export const CONTINUE = true;
export const EXIT = false;
export const SKIP = 'skip';

type Action = typeof CONTINUE | typeof EXIT | typeof SKIP;
type Result = Action | number | [Action, number?] | void;

type Tree = MdastRoot | HastRoot;
type NodeIn<R> = R extends MdastRoot ? MdastNodes : HastNodes;
type ParentIn<R> = R extends MdastRoot ? MdastParents : HastParents;
type Visitor<N, P> = (node: N, index: number | undefined, parent: P | undefined) => Result;

interface AnyNode {
  type: string;
  children?: AnyNode[];
}

export function visit<R extends Tree>(tree: R, visitor: Visitor<NodeIn<R>, ParentIn<R>>): void;
export function visit<R extends Tree, T extends NodeIn<R>['type']>(
  tree: R,
  type: T,
  visitor: Visitor<Extract<NodeIn<R>, { type: T }>, ParentIn<R>>,
): void;
export function visit(tree: Tree, typeOrVisitor: unknown, maybeVisitor?: unknown): void {
  const type = typeof typeOrVisitor === 'string' ? typeOrVisitor : undefined;
  const visitor = (maybeVisitor ?? typeOrVisitor) as Visitor<AnyNode, AnyNode>;

  /** Visits a node and its descendants: false to stop everything, or the index its parent continues at. */
  const step = (node: AnyNode, index: number | undefined, parent: AnyNode | undefined): number | undefined | false => {
    let action: Action = CONTINUE;
    let next: number | undefined;
    if (type === undefined || node.type === type) {
      const result = visitor(node, index, parent);
      if (Array.isArray(result)) [action, next] = [result[0], result[1]];
      else if (typeof result === 'number') next = result;
      else if (result !== undefined) action = result;
      if (action === EXIT) return false;
    }
    const children = node.children;
    if (children && action !== SKIP) {
      let offset = 0;
      while (offset < children.length) {
        const childNext = step(children[offset], offset, node);
        if (childNext === false) return false;
        offset = childNext ?? offset + 1;
      }
    }
    return next;
  };
  step(tree, undefined, undefined);
}
