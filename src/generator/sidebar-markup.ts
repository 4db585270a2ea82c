import type { SidebarEntry } from '../shared/model/page.js';
import { escapeHtml } from '../shared/escape-html.js';
import { containsRoute } from '../shared/model/sidebar.js';
import type { ShellRenderer } from './shell-renderer.js';

const plainMarkup = new WeakMap<SidebarEntry[], Map<string, string>>();

/** Which configured-collapsed categories the route opens, by position in the tree (e.g. "3 3.1 "): the markup depends on nothing else of the route but its own link. */
function openedCategories(entries: SidebarEntry[], route: string, prefix = ''): string {
  for (const [i, entry] of entries.entries()) {
    if (entry.type !== 'category' || !containsRoute(entry.items, route)) continue;
    const inner = openedCategories(entry.items, route, `${prefix}${i}.`);
    return entry.collapsed ? `${prefix}${i} ${inner}` : inner;
  }
  return '';
}

/**
 * The sidebar tree's markup with the current page's link marked, as `<SidebarItems>` renders it.
 * Every chapter page shows the tree, so rendering it per page made build time grow with
 * chapters² (a 1,000-chapter book spent most of its render time there). The tree is rendered
 * once per set of opened categories (once per sidebar when none is configured collapsed) with no
 * page marked; each page then only marks its own link (`className` gains "active",
 * `aria-current="page"` follows `href`).
 */
export function sidebarMarkup(entries: SidebarEntry[], currentRoute: string, shell: ShellRenderer): string {
  let byOpened = plainMarkup.get(entries);
  if (!byOpened) plainMarkup.set(entries, (byOpened = new Map<string, string>()));
  const opened = openedCategories(entries, currentRoute);
  let markup = byOpened.get(opened);
  if (markup === undefined) {
    markup = shell.renderSidebarTree(entries, currentRoute);
    byOpened.set(opened, markup);
  }
  // Escaped as React escapes attributes, so that the needle is what React wrote.
  const href = escapeHtml(currentRoute);
  return markup
    .split(`<a class="sidebar-link" href="${href}">`)
    .join(`<a class="sidebar-link active" href="${href}" aria-current="page">`);
}
