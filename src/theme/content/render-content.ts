import type { Element, ElementContent, Root, RootContent } from 'hast';
import type { InterfaceStrings } from '../../i18n/types.js';
import { attributesOf, escapeHtml, isVoidElement } from './html.js';

/** What content templates may read: the locale's strings and which examples may offer Run. */
export interface ContentContext {
  strings: InterfaceStrings;
  /** Examples that passed in the reader's runtimes (the browser-check record): they get Run. */
  runnable: ReadonlySet<string>;
  /** A page-unique id prefix for elements that refer to each other (tabs and their panels). */
  nextId(): string;
}

/**
 * A content template: a component of the chapter format (`<Compare>`, `:::tip`, a code block)
 * written as HTML from its hast element. `render` renders hast nodes (the element's children,
 * or some of them) as the rest of the content is rendered.
 */
export type ContentTemplate = (element: Element, context: ContentContext, render: (nodes: ElementContent[]) => string) => string;

/** Renders hast to HTML, with elements named after a template (`CodeBlock`, `h2`) rendered by it. */
export function renderHast(root: Root | Element, context: ContentContext, templates: Record<string, ContentTemplate>): string {
  const renderNodes = (nodes: Array<RootContent | ElementContent>, parent: string): string => {
    let html = '';
    for (const node of nodes) {
      if (node.type === 'text') {
        // Whitespace between table rows and cells is not text of the table (React drops it too).
        if (TABLE_PARTS.has(parent) && !node.value.trim()) continue;
        html += escapeHtml(node.value);
      } else if (node.type === 'element') {
        html += renderElement(node);
      } else if (node.type === 'raw') {
        throw new Error('raw HTML in chapter content: the markdown pipeline never makes it');
      }
      // Comments and doctypes are not content.
    }
    return html;
  };
  const renderElement = (element: Element): string => {
    const template = Object.hasOwn(templates, element.tagName) ? templates[element.tagName] : undefined;
    if (template) return template(element, context, (nodes) => renderNodes(nodes, element.tagName));
    const open = `<${element.tagName}${attributesOf(element.properties, element.tagName)}`;
    if (isVoidElement(element.tagName)) return `${open}/>`;
    return `${open}>${renderNodes(element.children, element.tagName)}</${element.tagName}>`;
  };
  return root.type === 'root' ? renderNodes(root.children, '') : renderElement(root);
}

const TABLE_PARTS = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr']);

/** A string property of a template's element, or undefined. */
export function stringProperty(element: Element, name: string): string | undefined {
  const value = element.properties[name];
  return typeof value === 'string' ? value : undefined;
}

/** The element children of an element (text between them, such as line breaks, left out). */
export const elementChildren = (element: Element): Element[] => element.children.filter((child): child is Element => child.type === 'element');

/** The text of hast nodes, as a reader sees it. */
export function textOf(nodes: ElementContent[]): string {
  let text = '';
  for (const node of nodes) {
    if (node.type === 'text') text += node.value;
    else if (node.type === 'element') text += textOf(node.children);
  }
  return text;
}
