import { createContext } from 'react';

/**
 * Server rendering only: the markup of the sidebar's link tree for a page, made by the build
 * (src/generator/sidebar-markup.ts) once per locale instead of once per page. The browser has no
 * provider and renders the tree as React elements, which hydrate against the same markup.
 */
export const SidebarMarkupContext = createContext<((currentRoute: string) => string) | null>(null);
