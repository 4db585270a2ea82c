import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadShellRenderer, type ShellRenderer } from '../../src/generator/shell-renderer.js';
import { sidebarMarkup as markupWith } from '../../src/generator/sidebar-markup.js';
import type { SidebarEntry } from '../../src/shared/model/page.js';
import { SidebarItems } from '../../src/theme/client/layout/Sidebar.js';

const link = (slug: string, label: string): SidebarEntry => ({ type: 'link', label, href: `/base/${slug}/`, slug });
const sidebar: SidebarEntry[] = [
  link('', 'Home'),
  {
    type: 'category',
    label: 'Introduction',
    collapsed: false,
    items: [link('about', 'About'), link('how-to', 'How to <use> "it"')],
  },
  {
    type: 'category',
    label: 'Part 1',
    collapsed: false,
    items: [
      link('setup', 'Setup'),
      { type: 'category', label: 'Nested', collapsed: false, items: [link('a&b', 'A & B'), link('deep', 'Deep')] },
    ],
  },
  { type: 'category', label: 'Closed', collapsed: true, items: [link('hidden', 'Hidden')] },
];

let shell: ShellRenderer;
beforeAll(async () => {
  shell = await loadShellRenderer();
});
const sidebarMarkup = (entries: SidebarEntry[], route: string) => markupWith(entries, route, shell);

describe('the sidebar rendered once per locale', () => {
  it('gives, for every page, exactly the markup React renders for it', () => {
    const routes = [
      '/base/',
      '/base/about/',
      '/base/how-to/',
      '/base/setup/',
      '/base/a&b/',
      '/base/deep/',
      '/base/hidden/',
      '/base/search/',
      '',
    ];
    for (const route of routes) {
      expect(sidebarMarkup(sidebar, route), route).toBe(
        renderToString(createElement(SidebarItems, { entries: sidebar, currentRoute: route })),
      );
    }
  });

  it('marks the current page, and only it', () => {
    const markup = sidebarMarkup(sidebar, '/base/deep/');
    expect(markup.match(/aria-current="page"/g)).toHaveLength(1);
    expect(markup).toContain('<a class="sidebar-link active" href="/base/deep/" aria-current="page">Deep</a>');
    expect(sidebarMarkup(sidebar, '/base/search/')).not.toContain('aria-current');
  });

  it('opens a category configured collapsed on the pages of its own chapters only', () => {
    // A native disclosure (it works before the app hydrates): open on its own chapters' pages,
    // closed elsewhere, its links inside it either way.
    const closed = '<summary class="sidebar-category-button"><span>Closed</span>';
    const hiddenLink = 'href="/base/hidden/"';
    expect(sidebarMarkup(sidebar, '/base/hidden/')).toContain(`<details open="">${closed}`);
    for (const route of ['/base/', '/base/about/', '/base/deep/']) {
      const markup = sidebarMarkup(sidebar, route);
      expect(markup).toContain(`<details>${closed}`);
      expect(markup.indexOf(hiddenLink)).toBeGreaterThan(markup.indexOf(`<details>${closed}`));
    }
    // Every other category starts open.
    expect(sidebarMarkup(sidebar, '/base/').match(/<details open="">/g)).toHaveLength(3);
  });
});
