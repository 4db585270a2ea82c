/**
 * What a reader downloads to show one chapter: the JavaScript the page loads up front (its
 * module entry plus the chunks it modulepreloads), its CSS, the HTML itself and the data it
 * preloads, gzipped at level 9 as a static host would serve them; and apart from those, the app
 * that hydrates the page after it is shown (src/client/hydrate.tsx and what it imports).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The first-load JavaScript budget of a chapter page, in KiB of gzip (10 × 1,024 bytes): what
 * loads before the page counts as loaded (issue 44: Starlight's pages load 7.7 KB of JavaScript).
 */
export const FIRST_LOAD_JS_BUDGET_KB = 10;
/** The app that hydrates after the page is shown: React 18 and the shell (docs/decisions/react-18.md). */
export const APP_JS_BUDGET_KB = 55;

export interface PageWeight {
  page: string;
  /** Each script the page loads up front, with its gzip size in bytes. */
  scripts: { file: string; gzipBytes: number }[];
  firstLoadJsGzipKb: number;
  /** The same in bytes: the budget is checked on these, not on the rounded figure. */
  firstLoadJsGzipBytes: number;
  withinBudget: boolean;
  /** Chunks the entry imports statically that the page does not modulepreload (a request waterfall). */
  staticImportsNotPreloaded: string[];
  cssGzipKb: number;
  htmlGzipKb: number;
  /** Data files the page preloads (`as="fetch"`): fetched once, then cached for every page. */
  dataGzipKb: number;
  /** The app the first-load script imports to hydrate (after load), with the chunks it imports. */
  app: { files: string[]; gzipBytes: number };
}

const gzipBytes = (data: Buffer | string) => gzipSync(data, { level: 9 }).length;
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

function attributeValues(html: string, tag: RegExp, attribute: string): string[] {
  const values: string[] = [];
  for (const match of html.matchAll(tag)) {
    const value = new RegExp(`\\s${attribute}="([^"]+)"`).exec(match[0])?.[1];
    if (value) values.push(value);
  }
  return values;
}

/** Site URL (under basePath) to a file in siteDir; query strings and fragments dropped. */
function fileFor(siteDir: string, basePath: string, url: string): string {
  const clean = url.split(/[?#]/)[0];
  if (!clean.startsWith(basePath)) throw new Error(`${url} is not under the base path ${basePath}`);
  return path.join(siteDir, decodeURIComponent(clean.slice(basePath.length)));
}

/** Specifiers (relative or absolute paths) of static `import`/`export … from` statements in an esbuild ES module. */
function staticImports(source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(
    /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]+from\s*)?["']((?:\.{1,2})?\/[^"']+)["']/g,
  ))
    found.add(match[1]);
  return [...found];
}

export function measurePageWeight(siteDir: string, basePath: string, chapterSlug: string): PageWeight {
  const page = path.join(chapterSlug, 'index.html');
  const html = readFileSync(path.join(siteDir, page), 'utf8');
  const entries = attributeValues(html, /<script\b[^>]*\btype="module"[^>]*>/g, 'src');
  const preloads = attributeValues(html, /<link\b[^>]*\brel="modulepreload"[^>]*>/g, 'href');
  const stylesheets = attributeValues(html, /<link\b[^>]*\brel="stylesheet"[^>]*>/g, 'href');
  const data = attributeValues(html, /<link\b[^>]*\bas="fetch"[^>]*>/g, 'href');
  if (entries.length === 0) throw new Error(`${page} has no <script type="module" src>`);

  const scriptFiles = [...new Set([...entries, ...preloads].map((url) => fileFor(siteDir, basePath, url)))];
  const scripts = scriptFiles.map((file) => ({
    file: path.relative(siteDir, file),
    gzipBytes: gzipBytes(readFileSync(file)),
  }));
  const loaded = new Set(scriptFiles);
  const notPreloaded = new Set<string>();
  const pending = [...scriptFiles];
  while (pending.length) {
    const file = pending.pop()!;
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      const imported = specifier.startsWith('/')
        ? fileFor(siteDir, basePath, specifier)
        : path.resolve(path.dirname(file), specifier);
      if (loaded.has(imported) || notPreloaded.has(imported)) continue;
      notPreloaded.add(imported);
      pending.push(imported);
    }
  }
  const firstLoadBytes = scripts.reduce((sum, s) => sum + s.gzipBytes, 0);
  const appFiles = appModuleFiles(siteDir, basePath, scriptFiles, entries);
  const cssBytes = stylesheets.reduce((sum, url) => sum + gzipBytes(readFileSync(fileFor(siteDir, basePath, url))), 0);
  return {
    page,
    scripts,
    firstLoadJsGzipKb: kb(firstLoadBytes),
    firstLoadJsGzipBytes: firstLoadBytes,
    withinBudget: firstLoadBytes <= FIRST_LOAD_JS_BUDGET_KB * 1024,
    staticImportsNotPreloaded: [...notPreloaded].map((file) => path.relative(siteDir, file)),
    cssGzipKb: kb(cssBytes),
    htmlGzipKb: kb(gzipBytes(html)),
    dataGzipKb: kb(data.reduce((sum, url) => sum + gzipBytes(readFileSync(fileFor(siteDir, basePath, url))), 0)),
    app: {
      files: appFiles.map((file) => path.relative(siteDir, file)),
      gzipBytes: appFiles.reduce((sum, file) => sum + gzipBytes(readFileSync(file)), 0),
    },
  };
}

/** Specifiers of `import("…")` expressions (dynamic imports) in an esbuild ES module. */
function dynamicImports(source: string): string[] {
  return [...new Set([...source.matchAll(/import\(\s*["']((?:\.{1,2})?\/[^"']+)["']\s*\)/g)].map((m) => m[1]))];
}

/** A file with every file it imports statically, directly or through others. */
function staticClosure(siteDir: string, basePath: string, file: string): string[] {
  const seen = new Set<string>();
  const pending = [file];
  while (pending.length) {
    const next = pending.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    for (const specifier of staticImports(readFileSync(next, 'utf8')))
      pending.push(
        specifier.startsWith('/') ? fileFor(siteDir, basePath, specifier) : path.resolve(path.dirname(next), specifier),
      );
  }
  return [...seen];
}

/**
 * The app's files: of the modules the page's entry imports dynamically, the one whose static
 * closure holds React's hydrateRoot, with that closure less what the page loaded up front.
 */
function appModuleFiles(siteDir: string, basePath: string, upFront: string[], entries: string[]): string[] {
  const loaded = new Set(upFront);
  for (const entryUrl of entries) {
    const entry = fileFor(siteDir, basePath, entryUrl);
    for (const specifier of dynamicImports(readFileSync(entry, 'utf8'))) {
      const module = specifier.startsWith('/')
        ? fileFor(siteDir, basePath, specifier)
        : path.resolve(path.dirname(entry), specifier);
      const closure = staticClosure(siteDir, basePath, module);
      if (closure.some((file) => readFileSync(file, 'utf8').includes('hydrateRoot')))
        return closure.filter((file) => !loaded.has(file));
    }
  }
  return [];
}
