import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadBook } from '../book/load-book.js';
import type { BookModel } from '../shared/model/book.js';
import { loadConfig } from '../config/load-config.js';
import type { BookConfig } from '../shared/model/config.js';
import type { Warning } from '../shared/model/chapter.js';
import { assembleSite, type CompiledBook } from '../pages/assemble.js';
import { toClientPage, type PageModel, type SiteData } from '../shared/model/page.js';
import { bundleClient, type ClientBundle } from '../bundler/bundle-client.js';
import { codeFingerprint, DiskCache, hashText } from '../cache/disk-cache.js';
import { ChapterCompiler } from './steps/compile-chapters.js';
import { SearchIndexer } from './steps/search-indexes.js';
import { checkBookLinks } from './steps/check-links.js';
import {
  jsonForScript,
  renderContent,
  renderDocument,
  renderHomeSections,
  TEMPLATE_FILE,
  type BodyScript,
  type RenderOptions,
} from './render-page.js';
import { loadShellRenderer, type ShellRenderer } from './shell-renderer.js';
import { loadPageTemplate } from './page-template.js';
import { renderSitemap } from './sitemap.js';
import { MARKER_FILE, markerJson } from '../output/marker.js';
import type { SiteFiles } from '../output/write-site.js';
import { exerciseKey, exerciseTestsKey, readBrowserVerdicts } from '../runner/build/browser-check-file.js';
import { runnerAssets } from '../runner/build/site-assets.js';
import { offlineBuild, retiringWorkerScript, type OfflineBuild } from '../offline/node/offline-build.js';
import { WORKER_FILE } from '../offline/shared/offline-data.js';
import { markdownSiteFiles } from '../llms/site-files.js';

const pybookVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * What a build is for:
 * - `in-memory`: every file of the site in BuildResult.files (tests, export, one-off tools); a
 *   Builder built again redoes only what changed.
 * - `streamed`: `pybook build`. The pages' documents stay out of `files` and each is rendered only
 *   when it is written (BuildResult.documents). Every document carries the whole sidebar, so a
 *   1,000-chapter book's documents are some 450 MB of strings: held all at once they were most of
 *   its memory. Such a builder keeps nothing it rendered for a next build.
 * - `watch`: `pybook watch`. jieba's whole dictionary is loaded once (any word an author adds later
 *   segments right), and route modules and search files get stable names, so that one edit changes
 *   one page's HTML instead of every page's (the server revalidates them on every request).
 */
export type BuildMode = 'in-memory' | 'streamed' | 'watch';

export interface BuildOptions {
  configPath: string;
  /** A script at the end of every page (watch mode's live-reload client). */
  bodyScript?: BodyScript;
  /** What the build is for (default: `in-memory`); see BuildMode. */
  mode?: BuildMode;
  /** Keep compiled chapters, the client bundle and search indexes on disk between builds. */
  diskCache?: boolean;
  /** The HTML shell (default: pybook's templates/page.html). */
  templateFile?: string;
  /** Threads that compile chapters (see compile-pool.ts); by default chosen from the cores and the work. */
  threads?: number;
  /** A small chapter's compile time budget in ms, scaled by size (default: PYBOOK_COMPILE_BUDGET_MS, else compile-budget/budget.ts). */
  compileBudgetMs?: number;
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
  /** Watch mode only: builds the search files, which `files` then lacks (see BuildMode). */
  deferredSearch?: () => SiteFiles;
  /** In the `streamed` mode: the pages' documents, each rendered as it is read (read once). */
  documents?: Iterable<[string, string]>;
}

/** The build's steps that keep what they made for the next build of the same Builder (watch mode). */
interface BuildSteps {
  chapters: ChapterCompiler;
  search: SearchIndexer;
}

type PageRenderOptions = Omit<RenderOptions, 'pybookVersion' | 'bodyScript'>;

function readTextOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Chapters per locale that fall back to the default locale's text. */
function fallbacksOf(book: BookModel): Record<string, number> {
  return Object.fromEntries(
    book.locales.map((locale) => [locale.code, book.chapters[locale.code].filter((c) => c.fallback).length]),
  );
}

/**
 * A builder keeps what it computed last time (compiled chapters, rendered pages, the client
 * bundle) keyed by the inputs' content, so watch mode redoes only what a change affects.
 * A single `pybook build` simply uses it once.
 */
export class Builder {
  /** Rendered documents by output file, with what they were rendered from. */
  private rendered = new Map<string, { siteKey: string; pageJson: string; html: string; document: string }>();
  private contentByTree = new WeakMap<object, string>();
  private bundle?: Promise<ClientBundle>;
  private disk?: DiskCache;
  /** The steps that keep what they made for the next build, made once the config is known (see readInputs). */
  private steps?: BuildSteps;
  private pruned = false;
  /** This build's offline feature (src/offline/), when it has one. */
  private offline?: OfflineBuild;

  /** The text of every input file the last build read (the config and chapters), by path. */
  private inputs = new Map<string, string | undefined>();

  /**
   * Whether what a build renders (documents, route modules, content JSON) is kept for the next
   * one. A one-off build that streams its documents keeps nothing: it makes each once anyway, and
   * keeping them would keep them all in memory (see BuildMode).
   */
  private readonly keepsRendered: boolean;
  /** Watch mode (see BuildMode). */
  private readonly watching: boolean;
  private readonly streamed: boolean;

  constructor(private readonly options: BuildOptions) {
    this.watching = options.mode === 'watch';
    this.streamed = options.mode === 'streamed';
    this.keepsRendered = !this.streamed;
  }

  /**
   * Whether an input the last build read differs on disk now. An editor that truncates and then
   * writes can be caught half way; watch mode asks this before reporting an error, and rebuilds
   * instead when the file has moved on.
   */
  inputsChangedOnDisk(): boolean {
    for (const [file, text] of this.inputs) {
      const now = readTextOrUndefined(file);
      if (now !== undefined && now.replace(/^\ufeff/, '') !== text?.replace(/^\ufeff/, '')) return true;
    }
    return false;
  }

  /**
   * One build, as named steps: read the inputs, compile the chapters, check the links, build the
   * search indexes, add the client and the runner, render the pages, and add the small files.
   */
  async build(): Promise<BuildResult> {
    const progress = this.options.onProgress ?? (() => {});
    progress('reading configuration');
    const { config, book, steps } = this.readInputs();
    const bundle = this.startClientBundle(config);

    progress('compiling chapters');
    const compiled = await steps.chapters.compile(book);
    const { sites, pages } = assembleSite(book, compiled);

    progress('checking links');
    const { staticDirs, warnings } = checkBookLinks(config, pages);
    this.useVerdicts(readBrowserVerdicts(config), compiled, warnings);
    for (const [locale, chapters] of Object.entries(compiled))
      sites[locale].exercises = checkableExercises(chapters, this.runnable);

    const files: SiteFiles = new Map();
    // The book for AI tools (src/llms/): each chapter's Markdown, llms.txt and llms-full.txt.
    for (const [name, text] of markdownSiteFiles({ book, pages, sites, compiled })) files.set(name, text);
    progress('building the search index');
    const deferredSearch = steps.search.add(pages, book, sites, files, (contents) => this.version(contents));

    progress('bundling the client');
    const client = await bundle;
    // Files named by their content: the client bundle, route modules outside watch mode, site data.
    const contentNamed: string[] = [...client.files.keys()];
    for (const [name, contents] of client.files) files.set(name, contents);
    progress('adding the example runner');
    const runner = await runnerAssets(config, this.disk);
    for (const [name, contents] of runner.files) files.set(name, contents);
    contentNamed.push(...runner.contentNamed);

    // Reading offline (src/offline/): the worker's place in the site data, its head on every page.
    this.offline = offlineBuild({
      config,
      book,
      sites,
      staticDirs,
      client,
      runner,
      disk: this.disk,
      dev: this.watching,
      pybookVersion,
    });

    progress('rendering pages');
    const shell = await loadShellRenderer();
    const documents = this.renderPages({ config, book, pages, sites, files, contentNamed, client, runner, shell });
    files.set(
      'sitemap.xml',
      await renderSitemap(pages, config.siteUrl, config.sitemap.changefreq, config.sitemap.priority),
    );
    files.set(MARKER_FILE, markerJson(contentNamed));
    files.set('robots.txt', `User-agent: *\nAllow: /\n\nSitemap: ${config.siteUrl}${config.basePath}sitemap.xml\n`);

    // The web app manifests, and the worker with the build's files (after the pages: it lists their revisions).
    const written = this.offline ? await this.offline.finish(files, documents, pages) : documents;
    // Turned off: only the worker that removes an earlier build's (see retiringWorkerScript).
    if (!config.offline.enabled && !this.watching) files.set(WORKER_FILE, retiringWorkerScript(config.basePath));
    this.pruneDiskCache();
    return {
      config,
      book,
      pages,
      sites,
      files,
      warnings,
      staticDirs,
      fallbacks: fallbacksOf(book),
      deferredSearch,
      documents: written,
    };
  }

  /**
   * The book compiled and its pages assembled, links checked, without the site's files: what
   * `pybook export` prints from (src/export). Compiled chapters come from and go to the disk cache
   * as in build().
   */
  async compileSite(): Promise<Pick<BuildResult, 'config' | 'book' | 'pages' | 'sites' | 'warnings' | 'staticDirs'>> {
    const { config, book, steps } = this.readInputs();
    const compiled = await steps.chapters.compile(book);
    const { sites, pages } = assembleSite(book, compiled);
    const { staticDirs, warnings } = checkBookLinks(config, pages);
    return { config, book, pages, sites, warnings, staticDirs };
  }

  /**
   * Reads the config and the chapters, remembering their text (see inputsChangedOnDisk); opens the
   * build cache and makes the steps that use it, once the config says where it is.
   */
  private readInputs(): { config: BookConfig; book: BookModel; steps: BuildSteps } {
    this.inputs = new Map([[path.resolve(this.options.configPath), readTextOrUndefined(this.options.configPath)]]);
    const config = loadConfig(this.options.configPath);
    const book = loadBook(config);
    for (const locale of book.locales)
      for (const chapter of book.chapters[locale.code]) this.inputs.set(chapter.file, chapter.source);
    this.disk ??= DiskCache.forBook(config.rootDir, this.options.diskCache === true);
    // Watch mode writes the cache once the pages are out, or the edit shown (see flushCache).
    if (this.watching) this.disk.deferWrites();
    const { mode = 'in-memory', threads, compileBudgetMs } = this.options;
    this.steps ??= {
      chapters: new ChapterCompiler(this.disk, { mode, threads, compileBudgetMs }),
      search: new SearchIndexer(this.disk, this.watching),
    };
    return { config, book, steps: this.steps };
  }

  /** Starts bundling the client while the chapters compile; a failed bundle is not kept for the next build. */
  private startClientBundle(config: BookConfig): Promise<ClientBundle> {
    this.bundle ??= bundleClient(config.basePath, this.disk);
    // This build awaits its own bundle (and so reports its real error).
    const bundle = this.bundle;
    bundle.catch(() => {
      if (this.bundle === bundle) this.bundle = undefined;
    });
    return bundle;
  }

  /**
   * Writes each locale's site data and every page's route module into `files`, and renders the
   * pages' documents: into `files`, or (the streamed mode) one at a time as the writer reads them.
   */
  private renderPages(site: {
    config: BookConfig;
    book: BookModel;
    pages: PageModel[];
    sites: Record<string, SiteData>;
    files: SiteFiles;
    contentNamed: string[];
    client: ClientBundle;
    runner: Awaited<ReturnType<typeof runnerAssets>>;
    shell: ShellRenderer;
  }): Iterable<[string, string]> | undefined {
    const { config, book, pages, sites, files, contentNamed, client, runner } = site;
    // Each page's client JSON is made once: its route module and its document both use it.
    const pageJson = new Map(pages.map((page) => [page, jsonForScript(toClientPage(page))]));
    const routeChunks = this.renderRouteChunks(pages, pageJson, sites, config, files);
    if (!this.watching)
      contentNamed.push(
        ...Object.values(routeChunks).flatMap((routes) =>
          Object.values(routes).map((url) => url.slice(config.basePath.length)),
        ),
      );
    const siteKeys = new Map<string, string>();
    const renderOptions = new Map<string, PageRenderOptions>();
    const template = loadPageTemplate(this.options.templateFile ?? TEMPLATE_FILE);
    this.offline?.prepare(routeChunks, template);
    for (const locale of book.locales) {
      sites[locale.code].routes = routeChunks[locale.code];
      sites[locale.code].lazyModules = client.assets.lazy;
      sites[locale.code].runner = runner.data;
      // What every page of a locale shares (sidebar, strings, route map) is one file the client
      // fetches, not JSON repeated in each page: pages stay small however long the sidebar gets.
      // Named by its content in watch mode too: a change only the client sees (search settings,
      // say) then still changes every page, so that open tabs reload and fetch the new data.
      const siteJson = JSON.stringify(sites[locale.code]);
      const siteFile = `assets/site/${locale.code}.${hashText(siteJson).slice(0, 10)}.json`;
      files.set(siteFile, siteJson);
      contentNamed.push(siteFile);
      const options: PageRenderOptions = {
        siteUrl: config.siteUrl,
        assets: client.assets,
        siteDataUrl: config.basePath + siteFile,
        template,
        shell: site.shell,
        offline: this.offline?.pageHead(locale),
      };
      renderOptions.set(locale.code, options);
      siteKeys.set(
        locale.code,
        hashText(siteJson, JSON.stringify(options), JSON.stringify(this.options.bodyScript ?? null)),
      );
    }
    const documentOf = (page: PageModel) =>
      this.renderPage(
        sites[page.locale],
        siteKeys.get(page.locale)!,
        page,
        pageJson.get(page)!,
        renderOptions.get(page.locale)!,
      );
    if (this.streamed) return this.streamDocuments(pages, documentOf);
    for (const page of pages) files.set(page.outputFile, documentOf(page));
    return undefined;
  }

  /**
   * The documents one at a time, as the writer reads them (after build() has returned): the cache
   * of documents is pruned once the last one is read, not with the rest (see pruneDiskCache).
   */
  private *streamDocuments(pages: PageModel[], documentOf: (page: PageModel) => string): Generator<[string, string]> {
    for (const page of pages) yield [page.outputFile, documentOf(page)];
    this.disk!.prune(this.documentsNamespace);
  }

  /**
   * Drops cache entries no build uses any more. Watch mode prunes at its first build only (later
   * builds would just spend the time), and never the search entries of `pybook build`, which are
   * not its own (see searchIndexes).
   */
  private pruneDiskCache(): void {
    if (this.watching && this.pruned) return;
    const namespaces = this.watching
      ? ['chapters', 'client', 'runner', 'content', 'documents', 'modules']
      : [
          'chapters',
          'search',
          'client',
          'runner',
          this.contentNamespace,
          ...(this.streamed ? [] : [this.documentsNamespace]),
        ];
    for (const namespace of namespaces) this.disk!.prune(namespace);
    this.pruned = true;
  }

  /**
   * One ES module per route whose default export is the page (model + content HTML); the client
   * router imports it on navigation. Returns route -> module URL per locale. Names carry a content
   * hash (cached for good by browsers), except in watch mode, where stable names keep one edit
   * from changing the route map, and so the HTML, of every page.
   */
  private renderRouteChunks(
    pages: PageModel[],
    pageJson: Map<PageModel, string>,
    sites: Record<string, SiteData>,
    config: BookConfig,
    files: SiteFiles,
  ) {
    const routes: Record<string, Record<string, string>> = {};
    for (const page of pages) {
      // An unlisted page is reached by its link only: the route map, which every page loads, does
      // not name it (a client navigation there loads the page whole).
      if (page.kind === 'notFound' || page.unlisted) continue;
      const html = this.pageHtml(page, sites[page.locale]);
      const source = this.routeSource(page.outputFile, pageJson.get(page)!, html, page.hast);
      const version = this.watching ? '' : `.${hashText(source).slice(0, 10)}`;
      const name = `assets/pages/${page.locale}/${page.slug || 'index'}${version}.js`;
      files.set(name, source);
      (routes[page.locale] ??= {})[page.route] = config.basePath + name;
    }
    return routes;
  }

  private routeSources = new Map<string, { pageJson: string; html: string; source: string }>();
  /**
   * A route module's source: `export default {"page": …, "html": …}`, the page's client JSON and its HTML.
   * An unchanged page keeps its last source string, so that watch mode's output sync sees the
   * same object instead of comparing (and first flattening) a new 60 KB string per page.
   */
  private routeSource(key: string, pageJson: string, html: string, tree?: object): string {
    const last = this.routeSources.get(key);
    if (last && last.html === html && last.pageJson === pageJson) return last.source;
    // Watch mode's start: the modules its last start made (see contentDiskKey); the content key
    // stands for the HTML, whose JSON is most of the work.
    const content = this.watching && !this.pruned && tree && this.contentKeys.get(tree);
    const diskKey = content ? hashText(content, key, pageJson).slice(0, 40) : undefined;
    const stored = diskKey === undefined ? undefined : this.disk!.read('modules', diskKey)?.toString('utf8');
    const source = stored ?? `export default {"page":${pageJson},"html":${this.htmlJson(html)}};\n`;
    if (diskKey !== undefined && stored === undefined) this.disk!.write('modules', diskKey, source);
    if (this.keepsRendered) this.routeSources.set(key, { pageJson, html, source });
    return source;
  }

  /** Watch mode: writes the build cache entries that its builds held back. */
  flushCache(): void {
    this.disk?.flush();
  }

  /**
   * Watch mode: loads jieba's full dictionary now (more than a second) instead of at the first
   * edit, which would then wait for it. Watch mode calls it once its first page is served.
   */
  loadSegmenter(): void {
    this.steps?.search.loadSegmenter();
  }

  /** Cache-busting version of a file: its content hash, or a constant in watch mode (see BuildMode). */
  private version(contents: string): string {
    return this.watching ? 'dev' : hashText(contents).slice(0, 10);
  }

  private htmlJsonCache = new Map<string, string>();
  /**
   * A page's HTML as a string literal of its route module. The module is a file of its own that
   * the client imports, never text inside a <script> element, so no "<" needs escaping (a fifth
   * of the literal's bytes were "\u003c"), and JSON is valid JavaScript since ES2019.
   */
  private htmlJson(html: string): string {
    if (!this.keepsRendered) return JSON.stringify(html);
    let json = this.htmlJsonCache.get(html);
    if (json === undefined) {
      if (this.htmlJsonCache.size > 10_000) this.htmlJsonCache.clear();
      json = JSON.stringify(html);
      this.htmlJsonCache.set(html, json);
    }
    return json;
  }

  /** The static HTML part of a page: a chapter's content, the home page's sections, else nothing. */
  private pageHtml(page: PageModel, site: SiteData): string {
    if (page.hast) return this.contentHtml(page, site);
    if (!page.home) return '';
    // Both the route module and the document use it: render it once per build (keyed by this build's home data).
    let html = this.contentByTree.get(page.home);
    if (html === undefined) this.contentByTree.set(page.home, (html = renderHomeSections(page.home, site)));
    return html;
  }

  private runnable: ReadonlySet<string> = new Set();
  private runnableKey?: string;
  /** Takes this build's browser-check verdicts; content rendered with other verdicts is rendered again. */
  private useVerdicts(
    verdicts: ReturnType<typeof readBrowserVerdicts>,
    compiled: CompiledBook,
    warnings: Warning[],
  ): void {
    const unchecked = new Set<string>();
    for (const chapters of Object.values(compiled)) {
      for (const chapter of Object.values(chapters)) {
        for (const { key } of chapter.examples) if (key !== undefined && !verdicts.passed.has(key)) unchecked.add(key);
      }
    }
    if (unchecked.size) {
      warnings.push({
        file: verdicts.file,
        message: `${unchecked.size} example${unchecked.size === 1 ? ' has' : 's have'} no Run button: ${verdicts.problem ?? 'not checked in the browser since they changed, or failed there'}; run \`npx pybook check\``,
      });
    }
    const key = [...verdicts.passed].sort().join(',');
    if (key === this.runnableKey) return;
    this.runnableKey = key;
    this.runnable = verdicts.passed;
    this.contentByTree = new WeakMap();
  }

  /** A chapter's content HTML; an unchanged chapter keeps its compiled tree object, so this is computed once. */
  private contentHtml(page: PageModel, site: SiteData): string {
    let html = this.contentByTree.get(page.hast!);
    if (html === undefined) {
      const key = this.contentDiskKey(page, site);
      const stored = key === undefined ? undefined : this.disk!.read(this.contentNamespace, key)?.toString('utf8');
      html = stored ?? renderContent(page.hast!, site, this.runnable);
      if (key !== undefined) {
        if (stored === undefined) this.disk!.write(this.contentNamespace, key, html);
        this.contentKeys.set(page.hast!, key);
      }
      this.contentByTree.set(page.hast!, html);
    }
    return html;
  }

  /** The cache key of each chapter's content HTML (see contentDiskKey). */
  private contentKeys = new WeakMap<object, string>();
  private contentCodeKey?: string;
  private siteContentKeys = new WeakMap<SiteData, string>();
  /**
   * Where the content HTML is kept: the site data differs between watch mode and `pybook build`
   * (watch mode's route modules have stable names), so their entries never match, and each
   * prunes only its own.
   */
  private get contentNamespace(): string {
    return this.watching ? 'content' : 'build-content';
  }
  /** Where the chapters' documents are kept: apart for the same reason (their live-reload script differs too). */
  private get documentsNamespace(): string {
    return this.watching ? 'documents' : 'build-documents';
  }
  /**
   * Rendering every chapter's content through React is the largest part of a build whose
   * chapters come from the cache: `pybook build` and watch mode's start keep that HTML on disk
   * (see contentNamespace), keyed by all that renderContent may read (the compiled chapter, the whole site
   * data, the examples that may offer Run, the code that renders it), and the next
   * build reads it back, with the chapters' documents (see renderPage). Watch mode's start keeps
   * the route modules too (see routeSource); its later builds render the few changed chapters and
   * keep them in memory.
   */
  private contentDiskKey(page: PageModel, site: SiteData): string | undefined {
    const tree = this.steps?.chapters.treeKeyOf(page.hast!);
    if ((this.watching && this.pruned) || !this.disk!.enabled || tree === undefined) return undefined;
    this.contentCodeKey ??= codeFingerprint('theme', 'shared', 'generator', 'pages');
    let siteKey = this.siteContentKeys.get(site);
    if (siteKey === undefined) this.siteContentKeys.set(site, (siteKey = hashText(JSON.stringify(site))));
    return hashText(this.contentCodeKey, tree, siteKey, [...this.runnable].sort().join('\n')).slice(0, 40);
  }

  /**
   * Renders a page's document, or reuses the last one when nothing it depends on changed. The
   * inputs are compared as strings: unchanged content HTML is the very same string object, and
   * comparing the page JSON is cheaper than hashing it.
   */
  private renderPage(
    site: SiteData,
    siteKey: string,
    page: PageModel,
    pageJson: string,
    options: PageRenderOptions,
  ): string {
    const html = this.pageHtml(page, site);
    const cached = this.rendered.get(page.outputFile);
    if (cached && cached.siteKey === siteKey && cached.html === html && cached.pageJson === pageJson)
      return cached.document;
    // A chapter's document as the last `pybook build` (or watch mode's last start) rendered it
    // (see contentDiskKey), keyed by what this cache compares plus the chapter's content key (the
    // content HTML's stand-in, which covers the rendering code).
    const content = !(this.watching && this.pruned) && page.hast && this.contentKeys.get(page.hast);
    const diskKey = content
      ? hashText(content, pybookVersion, page.outputFile, siteKey, pageJson).slice(0, 40)
      : undefined;
    const stored =
      diskKey === undefined ? undefined : this.disk!.read(this.documentsNamespace, diskKey)?.toString('utf8');
    const document =
      stored ??
      renderDocument(site, page, pageJson, html, { ...options, pybookVersion, bodyScript: this.options.bodyScript });
    if (diskKey !== undefined && stored === undefined) this.disk!.write(this.documentsNamespace, diskKey, document);
    if (this.keepsRendered) this.rendered.set(page.outputFile, { siteKey, pageJson, html, document });
    return document;
  }
}

/** Chapter slug -> its exercise's tests key, for the exercises a reader can Check (the browser check passed them). */
function checkableExercises(chapters: CompiledBook[string], runnable: ReadonlySet<string>): Record<string, string> {
  const exercises: Record<string, string> = {};
  for (const [slug, chapter] of Object.entries(chapters))
    if (chapter.exercise && runnable.has(exerciseKey(chapter.exercise)))
      exercises[slug] = exerciseTestsKey(chapter.exercise);
  return exercises;
}
