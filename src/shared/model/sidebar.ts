import type { BookConfig, SidebarItemConfig } from './config.js';
import { localize } from './config.js';
import type { NavLink, SidebarEntry, SidebarLink } from './page.js';

export interface ChapterLabel {
  label: string;
  href: string;
  unlisted: boolean;
}

/** The locale's sidebar tree: Home first, then the configured categories; unlisted chapters left out. */
export function buildSidebar(
  config: BookConfig,
  locale: string,
  home: SidebarLink,
  chapterLabel: (slug: string) => ChapterLabel,
): SidebarEntry[] {
  const convert = (items: SidebarItemConfig[]): SidebarEntry[] =>
    items.flatMap((item): SidebarEntry[] => {
      if (typeof item === 'string') {
        const chapter = chapterLabel(item);
        return chapter.unlisted ? [] : [{ type: 'link', label: chapter.label, href: chapter.href, slug: item }];
      }
      const children = convert(item.items);
      if (!children.length) return [];
      return [
        {
          type: 'category',
          label: localize(item.label, locale, config.defaultLocale),
          collapsed: item.collapsed ?? false,
          items: children,
        },
      ];
    });
  return [home, ...convert(config.sidebar)];
}

/** Sidebar links in reading order, for Previous/Next. */
export function flattenSidebar(entries: SidebarEntry[]): SidebarLink[] {
  return entries.flatMap((e) => (e.type === 'link' ? [e] : flattenSidebar(e.items)));
}

/** Category labels leading to a slug, for breadcrumbs. */
export function categoryTrail(entries: SidebarEntry[], slug: string, trail: NavLink[] = []): NavLink[] | undefined {
  for (const entry of entries) {
    if (entry.type === 'link' && entry.slug === slug) return trail;
    if (entry.type === 'category') {
      const found = categoryTrail(entry.items, slug, [...trail, { label: entry.label, href: '' }]);
      if (found) return found;
    }
  }
  return undefined;
}

/** True when one of the entries, at any depth, links to the route. */
export function containsRoute(entries: SidebarEntry[], route: string): boolean {
  return entries.some((entry) => (entry.type === 'link' ? entry.href === route : containsRoute(entry.items, route)));
}
