import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../core/package-root.js';
import type { ClientPage, SidebarEntry, SiteData } from '../shared/model/page.js';

/** What src/theme/client/server-render.tsx offers the build (its exports, declared on this side of the seam). */
export interface ShellRenderer {
  renderShell(site: SiteData, page: ClientPage, html: string, sidebarMarkup: (route: string) => string): string;
  renderSidebarTree(entries: SidebarEntry[], openRoute: string): string;
}

let loaded: Promise<ShellRenderer> | undefined;

/**
 * The page shell's server renderer: the browser components bundled for Node at `npm run prepare`,
 * or, when pybook runs from its sources (the tests, tsx), the component source itself. Loaded by
 * URL, so that the compiler never takes Node code into the browser's modules (see
 * docs/architecture.md).
 */
export function loadShellRenderer(): Promise<ShellRenderer> {
  const fromSources = import.meta.url.endsWith('.ts');
  const file = fromSources
    ? path.join(PACKAGE_ROOT, 'src', 'theme', 'client', 'server-render.tsx')
    : path.join(PACKAGE_ROOT, 'dist', 'bundle', 'server-render.js');
  loaded ??= import(pathToFileURL(file).href) as Promise<ShellRenderer>;
  return loaded;
}
