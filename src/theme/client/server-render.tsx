/**
 * The page shell as the build renders it on the server: the same React components the browser
 * hydrates, bundled by esbuild into one module for Node (dist/bundle/server-render.js, made by
 * `npm run prepare`; from src/ when pybook runs from its sources). Node code never imports the
 * shell's modules itself (they are browser code, typed with the DOM): it loads this module through
 * src/generator/shell-renderer.ts, which declares what it offers.
 */
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { ClientPage, SidebarEntry, SiteData } from '../../shared/model/page.js';
import { App } from './App.js';
import { SidebarItems } from './layout/Sidebar.js';
import { SidebarMarkupContext } from './layout/sidebar-markup.js';

/** The app's markup for a page, with the sidebar's link tree given as markup (made once per locale by the build). */
export function renderShell(
  site: SiteData,
  page: ClientPage,
  html: string,
  sidebarMarkup: (route: string) => string,
): string {
  return renderToString(
    createElement(SidebarMarkupContext.Provider, { value: sidebarMarkup }, createElement(App, { site, page, html })),
  );
}

/** The sidebar's link tree with no page marked, its categories open as `openRoute` opens them. */
export function renderSidebarTree(entries: SidebarEntry[], openRoute: string): string {
  return renderToString(createElement(SidebarItems, { entries, currentRoute: '', openRoute }));
}
