import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { SidebarEntry } from '../pages/types.js';
import { SidebarItems } from '../theme/layout/Sidebar.js';

// React's escaping of attribute values, so that the needle below is what React wrote.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const plainMarkup = new WeakMap<SidebarEntry[], string>();

/**
 * The sidebar tree's markup with the current page's link marked, as `<SidebarItems>` renders it.
 * Every chapter page shows the whole tree, so rendering it per page made build time grow with
 * chapters² (a 1,000-chapter book spent most of its render time there). The tree is rendered
 * once per sidebar with no page marked; each page then only marks its own link, which is the
 * one thing that differs (`className` gains "active", `aria-current="page"` follows `href`).
 */
export function sidebarMarkup(entries: SidebarEntry[], currentRoute: string): string {
  let markup = plainMarkup.get(entries);
  if (markup === undefined) {
    markup = renderToString(createElement(SidebarItems, { entries, currentRoute: '' }));
    plainMarkup.set(entries, markup);
  }
  const href = escapeAttribute(currentRoute);
  return markup.split(`<a class="sidebar-link" href="${href}">`).join(`<a class="sidebar-link active" href="${href}" aria-current="page">`);
}
