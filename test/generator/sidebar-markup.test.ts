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
    const hiddenLink = 'href="/base/hidden/"';
    expect(sidebarMarkup(sidebar, '/base/hidden/')).toContain(hiddenLink);
    expect(sidebarMarkup(sidebar, '/base/hidden/')).toContain(
      '<button type="button" class="sidebar-category-button" aria-expanded="true"><span>Closed</span>',
    );
    for (const route of ['/base/', '/base/about/', '/base/deep/']) {
      expect(sidebarMarkup(sidebar, route)).not.toContain(hiddenLink);
      expect(sidebarMarkup(sidebar, route)).toContain('aria-expanded="false"><span>Closed</span>');
    }
  });
});
