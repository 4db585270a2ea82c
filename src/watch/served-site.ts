import { existsSync } from 'node:fs';
import type { BuildResult } from '../generator/build.js';
import type { ProtectedFolders } from '../output/guard.js';
import { isProvenOutput } from '../output/manifest.js';
import { MARKER_FILE } from '../output/marker.js';
import { writeSiteAtomically, type SiteFiles } from '../output/write-site.js';
import { pageFingerprint, routeModuleJson, type LiveEvent } from './live-reload.js';
import { restoreOutputIfGone } from './restore-output.js';
import { syncOutput, syncOutputWithDisk } from './sync-output.js';

/** The search files (the index and each page's text file), which watch mode writes after the pages. */
export const SEARCH_FILE = /(^|\/)(search-index\.json|search-text\/\d+\.json)$/;

/**
 * The site that watch mode serves: every output file in memory (the last good build plus the
 * static folders) and the output folder kept equal to it. The search files of a build come after
 * its pages (see writeSearch). Each page's fingerprint (for the live-reload stream) is computed
 * when first asked for.
 */
export class ServedSite {
  private files: SiteFiles = new Map();
  private staticFiles: SiteFiles = new Map();
  private fingerprints = new Map<string, string>();
  /** The latest build's search files, until they are written. */
  private pendingSearch: (() => SiteFiles) | undefined;

  constructor(private readonly outDir: string) {}

  get searchPending(): boolean {
    return this.pendingSearch !== undefined;
  }

  setStaticFiles(staticFiles: SiteFiles): void {
    this.staticFiles = staticFiles;
  }

  /**
   * The first build's files. A folder pybook wrote before (the last session or build) is brought
   * up to date in place: most files are the same, and comparing them costs less than writing
   * them all again.
   */
  writeFirst(result: BuildResult, protect: ProtectedFolders): void {
    this.files = this.withStatic(result.files);
    this.pendingSearch = result.deferredSearch;
    if (existsSync(this.outDir) && isProvenOutput(this.outDir))
      syncOutputWithDisk(this.outDir, this.files, contentNamedOf(this.files));
    else writeSiteAtomically(this.outDir, this.files, [], { protect });
  }

  /**
   * A rebuild's pages in place of the last ones: the search files of the last build stay until the
   * new ones are ready. The event for the tabs is made before the files are written (see
   * WatchSession.publish); returns it and the writing, which reports the changed files.
   */
  replacePages(result: BuildResult, basePath: string): { event: LiveEvent; write: () => string[] } {
    const pagesOut = this.withStatic(result.files);
    for (const [name, contents] of this.files) if (SEARCH_FILE.test(name)) pagesOut.set(name, contents);
    const previous = this.files;
    this.files = pagesOut;
    this.pendingSearch = result.deferredSearch;
    this.fingerprints = new Map();
    const event = reloadEvent(result, pagesOut, changedRoutes(basePath, changedPages(previous, pagesOut)));
    return { event, write: () => syncOutput(this.outDir, previous, pagesOut) };
  }

  /** Writes the search files of the latest build, if they are not out yet. */
  writeSearch(): void {
    const buildSearch = this.pendingSearch;
    if (!buildSearch) return;
    this.pendingSearch = undefined;
    const withSearch = new Map([...this.files, ...buildSearch()]);
    syncOutput(this.outDir, this.files, withSearch);
    this.files = withSearch;
  }

  /** Writes the output folder again if it was deleted; true when it did. */
  restoreIfGone(protect: ProtectedFolders): boolean {
    return restoreOutputIfGone(this.outDir, this.files, protect);
  }

  /** The fingerprint of the page served at a URL path, or undefined when there is none. */
  fingerprintAt(basePath: string, urlPath: string): string | undefined {
    if (!urlPath.startsWith(basePath)) return undefined;
    let name: string;
    try {
      name = decodeURIComponent(urlPath.slice(basePath.length));
    } catch {
      return undefined;
    }
    return this.fingerprintOf(
      name === '' || name.endsWith('/') ? `${name}index.html` : name.endsWith('.html') ? name : `${name}/index.html`,
    );
  }

  private fingerprintOf(name: string): string | undefined {
    const contents = this.files.get(name);
    if (typeof contents !== 'string') return undefined;
    let fingerprint = this.fingerprints.get(name);
    if (fingerprint === undefined) this.fingerprints.set(name, (fingerprint = pageFingerprint(contents)));
    return fingerprint;
  }

  private withStatic(built: SiteFiles): SiteFiles {
    return new Map([...this.staticFiles, ...built]);
  }
}

/** Routes whose HTML file is among the changed output files. */
function changedRoutes(basePath: string, changed: string[]): string[] {
  return changed.filter((f) => f.endsWith('index.html')).map((f) => basePath + f.slice(0, -'index.html'.length));
}

/** HTML files that differ between two builds' outputs (an unchanged page is the same string). */
function changedPages(previous: SiteFiles, next: SiteFiles): string[] {
  const changed: string[] = [];
  for (const [name, contents] of next)
    if (name.endsWith('.html') && previous.get(name) !== contents) changed.push(name);
  for (const name of previous.keys()) if (name.endsWith('.html') && !next.has(name)) changed.push(name);
  return changed;
}

/**
 * The reload event of a rebuild. When one page changed, it carries that page's route module (its
 * model and content), so open tabs show it without fetching anything.
 */
function reloadEvent(result: BuildResult, files: SiteFiles, routes: string[]): LiveEvent {
  if (routes.length !== 1) return { type: 'reload', routes };
  const route = routes[0];
  const moduleUrl = Object.values(result.sites).find((site) => site.routes[route] !== undefined)?.routes[route];
  const source = moduleUrl === undefined ? undefined : files.get(moduleUrl.slice(result.config.basePath.length));
  const module = typeof source === 'string' ? routeModuleJson(source) : undefined;
  return module === undefined ? { type: 'reload', routes } : { type: 'reload', routes, module };
}

/** The files the build's marker lists as named by their content. */
function contentNamedOf(files: SiteFiles): Set<string> {
  const marker = files.get(MARKER_FILE);
  try {
    return new Set(
      (JSON.parse(typeof marker === 'string' ? marker : '') as { contentNamed?: string[] }).contentNamed ?? [],
    );
  } catch {
    return new Set();
  }
}
