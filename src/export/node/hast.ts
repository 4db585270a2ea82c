import type { Element, ElementContent, Parents, Root, RootContent } from 'hast';

/** Small helpers over hast trees (the exports' transformations). */

export const isElement = (node: RootContent | Root | undefined): node is Element => node?.type === 'element';

export function classesOf(node: Element): string[] {
  const value = node.properties.className;
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' ? (value as string).split(/\s+/) : [];
}

export const hasClass = (node: Element, name: string): boolean => classesOf(node).includes(name);

export function h(
  tagName: string,
  properties: Element['properties'] = {},
  children: Array<ElementContent | string> = [],
): Element {
  return {
    type: 'element',
    tagName,
    properties,
    children: children.map((child) => (typeof child === 'string' ? { type: 'text', value: child } : child)),
  };
}

/** The text of a node, as textContent. */
export function textOf(node: RootContent | Root): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return node.children.map((child) => textOf(child)).join('');
  return '';
}

/**
 * Visits every element, parents before children. The visitor may return 'remove' (the element
 * goes), 'skip' (its children are not visited) or a list of nodes that take its place (not visited).
 */
export function walkElements(
  tree: Parents,
  visit: (node: Element, parent: Parents) => 'remove' | 'skip' | RootContent[] | void,
): void {
  const children = tree.children as RootContent[];
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (child.type !== 'element') continue;
    const result = visit(child, tree);
    if (result === 'remove') {
      children.splice(i--, 1);
    } else if (Array.isArray(result)) {
      children.splice(i, 1, ...result);
      i += result.length - 1;
    } else if (result !== 'skip') walkElements(child, visit);
  }
}

/** The first descendant element matching `test`. */
export function findElement(tree: Parents, test: (node: Element) => boolean): Element | undefined {
  for (const child of tree.children) {
    if (child.type !== 'element') continue;
    if (test(child)) return child;
    const found = findElement(child, test);
    if (found) return found;
  }
  return undefined;
}
