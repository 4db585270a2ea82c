import type { ClientPage } from '../shared/model/page.js';

export interface RouteModule {
  page: ClientPage;
  html: string;
}

const loaded = new Map<string, Promise<RouteModule>>();

/**
 * Imports a route's page module. Each route is one ES module whose default export is the page;
 * a module without one is a broken deployment, reported as such instead of rendering nothing.
 */
export function loadRouteModule(url: string): Promise<RouteModule> {
  let promise = loaded.get(url);
  if (!promise) {
    promise = (import(/* @vite-ignore */ url) as Promise<{ default?: RouteModule }>).then((module) => {
      if (!module.default || typeof module.default !== 'object' || !module.default.page) {
        throw new Error(
          `Route module ${url} has no default export: a route component without a default export is an error.`,
        );
      }
      return module.default;
    });
    promise.catch(() => loaded.delete(url));
    loaded.set(url, promise);
  }
  return promise;
}

/** Watch mode: a new version of a route's module, pushed by the server, replaces the one loaded. */
export function replaceRouteModule(url: string, route: RouteModule): void {
  loaded.set(url, Promise.resolve(route));
}

/** Route (path) for a URL of this site: index.html and .html endings normalised away. */
export function normalizePath(pathname: string): string {
  return pathname.replace(/\/index\.html$/, '/').replace(/\.html$/, '/');
}
