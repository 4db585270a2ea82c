import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadBook } from '../book/load-book.js';
import { pageRoute } from '../book/routes.js';
import type { BookModel } from '../book/types.js';
import { loadConfig } from '../config/load-config.js';
import type { BookConfig } from '../config/types.js';
import { compileChapter } from '../markdown/compile.js';
import type { CompiledChapter, Warning } from '../markdown/types.js';
import { assembleSite, type CompiledBook } from '../pages/assemble.js';
import { checkLinks, findDuplicateRoutes } from '../pages/check-links.js';
import { toClientPage, type PageModel, type SiteData } from '../pages/types.js';
import { buildSearchIndexes } from '../search/build-index.js';
import { ChineseSegmenter } from '../search/jieba.js';
import { BookError, BookErrors } from '../shared/errors.js';
import { bundleClient, type ClientBundle } from './bundle-client.js';
import { jsonForScript, renderContent, renderDocument } from './render-page.js';
import { renderSitemap } from './sitemap.js';
import type { SiteFiles } from './write-output.js';

const pybookVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface BuildOptions {
  configPath: string;
  /** Extra markup before </body> on every page (watch mode's live-reload client). */
  bodyExtra?: string;
  /** Load jieba's whole dictionary once and keep it (watch mode) instead of one trimmed to the book. */
  fullDictionary?: boolean;
  onProgress?: (step: string) => void;
}

export interface BuildResult {
  config: BookConfig;
  book: BookModel;
  pages: PageModel[];
  sites: Record<string, SiteData>;
  files: SiteFiles;
  warnings: Warning[];
  staticDirs: string[];
  /** Pages per locale that fall back to the default locale's text. */
  fallbacks: Record<string, number>;
}

const hash = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');

/**
 * A builder keeps what it computed last time (compiled chapters, rendered pages, the client
 * bundle) keyed by the inputs' content, so watch mode redoes only what a change affects.
 * A single `pybook build` simply uses it once.
 */
export class Builder {
  private compiled = new Map<string, CompiledChapter>();
  private rendered = new Map<string, string>();
  private bundle?: Promise<ClientBundle>;
  private segmenter?: ChineseSegmenter;

  constructor(private readonly options: BuildOptions) {}

  /** Forget the client bundle (watch mode calls this when theme or client sources change). */
  invalidateClient(): void {
    this.bundle = undefined;
  }

  async build(): Promise<BuildResult> {
    const progress = this.options.onProgress ?? (() => {});
    progress('reading configuration');
    const config = loadConfig(this.options.configPath);
    const book = loadBook(config);
    this.bundle ??= bundleClient(config.basePath);
    this.bundle.catch(() => { this.bundle = undefined; });

    progress('compiling chapters');
    const compiled = this.compileAll(book);
    const { sites, pages } = assembleSite(book, compiled);

    progress('checking links');
    const links = checkLinks(pages);
    if (links.errors.length) throw new BookErrors(links.errors);
    const warnings = [...pages.flatMap((p) => p.warnings), ...links.warnings, ...findDuplicateRoutes(pages)];

    const files: SiteFiles = new Map();
    progress('building the search index');
    if (this.options.fullDictionary) this.segmenter ??= new ChineseSegmenter(undefined);
    for (const index of buildSearchIndexes(pages, book, this.segmenter)) {
      files.set(index.file, index.json);
      sites[index.locale].search.indexHash = hash(index.json).slice(0, 10);
    }

    progress('bundling the client');
    const client = await this.bundle;
    for (const [name, contents] of client.files) files.set(name, contents);

    progress('rendering pages');
    const routeChunks = this.renderRouteChunks(pages, sites, config, files);
    for (const page of pages) {
      const site = { ...sites[page.locale], routes: routeChunks[page.locale] };
      files.set(page.outputFile, this.renderPage(site, page, { siteUrl: config.siteUrl, assets: client.assets }));
    }
    files.set('sitemap.xml', await renderSitemap(pages, config.siteUrl, config.sitemap.changefreq, config.sitemap.priority));
    files.set('robots.txt', `User-agent: *\nAllow: /\n\nSitemap: ${config.siteUrl}${config.basePath}sitemap.xml\n`);

    const fallbacks: Record<string, number> = {};
    for (const locale of book.locales) fallbacks[locale.code] = book.chapters[locale.code].filter((c) => c.fallback).length;
    const staticDirs = [path.resolve(config.rootDir, config.staticDir)];
    return { config, book, pages, sites, files, warnings, staticDirs, fallbacks };
  }

  /** Compiles every chapter, reusing unchanged ones; reports every failing chapter at once. */
  private compileAll(book: BookModel): CompiledBook {
    const errors: BookError[] = [];
    const result: CompiledBook = {};
    const used = new Set<string>();
    for (const locale of book.locales) {
      result[locale.code] = {};
      for (const chapter of book.chapters[locale.code]) {
        const key = `${locale.code}\0${chapter.file}\0${hash(chapter.source)}\0${book.config.basePath}`;
        used.add(key);
        let compiledChapter = this.compiled.get(key);
        if (!compiledChapter) {
          try {
            compiledChapter = compileChapter(chapter.source, path.relative(process.cwd(), chapter.file), {
              slug: chapter.slug,
              basePath: book.config.basePath,
              localePaths: book.locales.filter((l) => !l.isDefault).map((l) => l.path),
              routeFor: (slug) => pageRoute(book.config.basePath, locale, slug),
            });
            this.compiled.set(key, compiledChapter);
          } catch (error) {
            // A chapter that falls back to the default locale is compiled once per locale: report its error once.
            if (error instanceof BookError) {
              if (!errors.some((e) => e.message === error.message && e.position?.file === error.position?.file && e.position?.line === error.position?.line)) errors.push(error);
              continue;
            }
            throw error;
          }
        }
        result[locale.code][chapter.slug] = compiledChapter;
      }
    }
    for (const key of this.compiled.keys()) if (!used.has(key)) this.compiled.delete(key);
    if (errors.length) throw errors.length === 1 ? errors[0] : new BookErrors(errors);
    return result;
  }

  /**
   * One ES module per route whose default export is the page (model + content HTML); the client
   * router imports it on navigation. Returns route -> module URL per locale.
   */
  private renderRouteChunks(pages: PageModel[], sites: Record<string, SiteData>, config: BookConfig, files: SiteFiles) {
    const routes: Record<string, Record<string, string>> = {};
    for (const page of pages) {
      if (page.kind === 'notFound') continue;
      const html = page.hast ? this.contentHtml(page, sites[page.locale]) : '';
      const source = `export default ${jsonForScript({ page: toClientPage(page), html })};\n`;
      const name = `assets/pages/${page.locale}/${page.slug || 'index'}.${hash(source).slice(0, 10)}.js`;
      files.set(name, source);
      (routes[page.locale] ??= {})[page.route] = config.basePath + name;
    }
    return routes;
  }

  private contentHtml(page: PageModel, site: SiteData): string {
    const key = `content\0${page.locale}\0${page.slug}`;
    const fingerprint = hash(JSON.stringify(page.hast) + site.locale.code);
    const cached = this.rendered.get(key);
    if (cached?.startsWith(fingerprint)) return cached.slice(fingerprint.length);
    const html = renderContent(page.hast!, site);
    this.rendered.set(key, fingerprint + html);
    return html;
  }

  private renderPage(site: SiteData, page: PageModel, options: { siteUrl: string; assets: ClientBundle['assets'] }): string {
    const html = page.hast ? this.contentHtml(page, site) : '';
    const key = `page\0${page.outputFile}`;
    const fingerprint = hash(JSON.stringify([site, toClientPage(page), html, options, this.options.bodyExtra ?? '']));
    const cached = this.rendered.get(key);
    if (cached?.startsWith(fingerprint)) return cached.slice(fingerprint.length);
    const document = renderDocument(site, page, html, { ...options, pybookVersion, bodyExtra: this.options.bodyExtra });
    this.rendered.set(key, fingerprint + document);
    return document;
  }
}
