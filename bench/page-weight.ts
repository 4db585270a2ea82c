/**
 * What a reader downloads to show one chapter: the JavaScript the page loads up front (its
 * module entry plus the chunks it modulepreloads), its CSS, the HTML itself and the data it
 * preloads for the client (the locale's site data, shared by every page), gzipped at level 9
 * as a static host would serve them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** The first-load JavaScript budget of a chapter page, in KiB of gzip (55 × 1,024 bytes). */
export const FIRST_LOAD_JS_BUDGET_KB = 55;

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
  };
}
