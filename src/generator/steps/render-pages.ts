import type { BookModel } from '../../shared/model/book.js';
import type { BookConfig } from '../../shared/model/config.js';
import type { Warning } from '../../shared/model/chapter.js';
import type { CompiledBook } from '../../pages/assemble.js';
import { toClientPage, type PageModel, type SiteData } from '../../shared/model/page.js';
import type { ClientBundle } from '../../bundler/bundle-client.js';
import { codeFingerprint, hashText, type CacheNamespace, type DiskCache } from '../../cache/disk-cache.js';
import type { SiteFiles } from '../../output/write-site.js';
import type { readBrowserVerdicts } from '../../runner/build/browser-check-file.js';
import type { RunnerAssets } from '../../runner/build/site-assets.js';
import type { OfflineBuild } from '../../offline/node/offline-build.js';
import {
  jsonForScript,
  renderContent,
  renderDocument,
  renderHomeSections,
  TEMPLATE_FILE,
  type BodyScript,
  type RenderOptions,
} from '../render-page.js';
import type { ShellRenderer } from '../shell-renderer.js';
import type { BuildMode } from './build-mode.js';
import { loadPageTemplate } from '../page-template.js';

export interface PageRendererOptions {
  /** What the build is for (see steps/build-mode.ts). */
  mode: BuildMode;
  pybookVersion: string;
  /** A script at the end of every page (watch mode's live-reload client). */
  bodyScript?: BodyScript;
  /** The HTML shell (default: pybook's templates/page.html). */
  templateFile?: string;
  /** The cache key of a compiled chapter's tree, when it came from or went to the cache (see ChapterCompiler). */
  treeKeyOf: (tree: object) => string | undefined;
}

/** What the pages are rendered from: the build's earlier steps' results. */
export interface RenderInput {
  config: BookConfig;
  book: BookModel;
  pages: PageModel[];
  sites: Record<string, SiteData>;
  /** The site's files, which the route modules, the site data and (but when streamed) the documents join. */
  files: SiteFiles;
  /** The files named by their content, which this step's route modules and site data join. */
  contentNamed: string[];
  client: ClientBundle;
  runner: RunnerAssets;
  shell: ShellRenderer;
  offline?: OfflineBuild;
}

type PageRenderOptions = Omit<RenderOptions, 'pybookVersion' | 'bodyScript'>;

/**
 * The build's step that renders the pages: each locale's site data, every page's route module and
 * every page's document. It keeps what it rendered for the next build of the same Builder (watch
 * mode), and keeps chapters' content HTML and documents in the build cache (see contentDiskKey).
 */
export class PageRenderer {
  /** Rendered documents by output file, with what they were rendered from. */
  private readonly rendered = new Map<string, { siteKey: string; pageJson: string; html: string; document: string }>();
  private readonly routeSources = new Map<string, { pageJson: string; html: string; source: string }>();
  private readonly htmlJsonCache = new Map<string, string>();
  private contentByTree = new WeakMap<object, string>();
  /** The cache key of each chapter's content HTML (see contentDiskKey). */
  private readonly contentKeys = new WeakMap<object, string>();
  private readonly siteContentKeys = new WeakMap<SiteData, string>();
  private contentCodeKey?: string;
  private runnable: ReadonlySet<string> = new Set();
  private runnableKey?: string;
  /**
   * Whether this renderer has pruned the cache: watch mode uses the cache at its start only, and
   * the Builder prunes the other steps' namespaces at that first build only too.
   */
  private prunedOnce = false;

  get pruned(): boolean {
    return this.prunedOnce;
  }

  /** Watch mode (see BuildMode). */
  private readonly watching: boolean;
  /**
   * Whether what a build renders (documents, route modules, content JSON) is kept for the next
   * one. A one-off build that streams its documents keeps nothing: it makes each once anyway, and
   * keeping them would keep them all in memory (see BuildMode).
   */
  private readonly keepsRendered: boolean;
  /**
   * Where the content HTML and the documents are kept: the site data differs between watch mode and
   * `pybook build` (watch mode's route modules have stable names, its pages a live-reload script),
   * so their entries never match, and each prunes only its own.
   */
  private readonly contentNamespace: CacheNamespace;
  private readonly documentsNamespace: CacheNamespace;

  constructor(
    private readonly disk: DiskCache,
    private readonly options: PageRendererOptions,
  ) {
    this.watching = options.mode === 'watch';
    this.keepsRendered = options.mode !== 'streamed';
    this.contentNamespace = this.watching ? 'content' : 'build-content';
    this.documentsNamespace = this.watching ? 'documents' : 'build-documents';
  }

  /**
   * Takes this build's browser-check verdicts and returns the examples that may offer Run; content
   * rendered with other verdicts is rendered again. Warns of the examples that have none.
   */
  useVerdicts(
    verdicts: ReturnType<typeof readBrowserVerdicts>,
    compiled: CompiledBook,
    warnings: Warning[],
  ): ReadonlySet<string> {
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
    if (key !== this.runnableKey) {
      this.runnableKey = key;
      this.runnable = verdicts.passed;
      this.contentByTree = new WeakMap();
    }
    return this.runnable;
  }

  /**
   * Writes each locale's site data and every page's route module into `files`, and renders the
   * pages' documents: into `files`, or (the streamed mode) one at a time as the writer reads them.
   */
  render(site: RenderInput): Iterable<[string, string]> | undefined {
    const { config, book, pages, sites, files, contentNamed, client, runner, offline } = site;
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
    offline?.prepare(routeChunks, template);
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
        offline: offline?.pageHead(locale),
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
    if (this.options.mode === 'streamed') return this.streamDocuments(pages, documentOf);
    for (const page of pages) files.set(page.outputFile, documentOf(page));
    return undefined;
  }

  /**
   * Drops the cache entries of this step's namespaces that the build did not use. Watch mode prunes
   * at its first build only (its later builds do not use the cache); a streamed build prunes its
   * documents once the last is read (see streamDocuments).
   */
  prune(): void {
    if (this.prunedOnce && this.watching) return;
    this.disk.prune(this.contentNamespace);
    if (this.options.mode !== 'streamed') this.disk.prune(this.documentsNamespace);
    if (this.watching) this.disk.prune('modules');
    this.prunedOnce = true;
  }

  /** Whether this build reads and writes the content, documents and route modules in the cache. */
  private get usesDisk(): boolean {
    return this.disk.enabled && !(this.watching && this.prunedOnce);
  }

  /**
   * The documents one at a time, as the writer reads them (after build() has returned): the cache
   * of documents is pruned once the last one is read, not with the rest (see prune).
   */
  private *streamDocuments(pages: PageModel[], documentOf: (page: PageModel) => string): Generator<[string, string]> {
    for (const page of pages) yield [page.outputFile, documentOf(page)];
    this.disk.prune(this.documentsNamespace);
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
    const content = this.watching && this.usesDisk && tree && this.contentKeys.get(tree);
    const diskKey = content ? hashText(content, key, pageJson).slice(0, 40) : undefined;
    const stored = diskKey === undefined ? undefined : this.disk.read('modules', diskKey)?.toString('utf8');
    const source = stored ?? `export default {"page":${pageJson},"html":${this.htmlJson(html)}};\n`;
    if (diskKey !== undefined && stored === undefined) this.disk.write('modules', diskKey, source);
    if (this.keepsRendered) this.routeSources.set(key, { pageJson, html, source });
    return source;
  }

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

  /** A chapter's content HTML; an unchanged chapter keeps its compiled tree object, so this is computed once. */
  private contentHtml(page: PageModel, site: SiteData): string {
    let html = this.contentByTree.get(page.hast!);
    if (html === undefined) {
      const key = this.contentDiskKey(page, site);
      const stored = key === undefined ? undefined : this.disk.read(this.contentNamespace, key)?.toString('utf8');
      html = stored ?? renderContent(page.hast!, site, this.runnable);
      if (key !== undefined) {
        if (stored === undefined) this.disk.write(this.contentNamespace, key, html);
        this.contentKeys.set(page.hast!, key);
      }
      this.contentByTree.set(page.hast!, html);
    }
    return html;
  }

  /**
   * Rendering every chapter's content through React is the largest part of a build whose
   * chapters come from the cache: `pybook build` and watch mode's start keep that HTML on disk
   * (see contentNamespace), keyed by all that renderContent may read (the compiled chapter, the
   * whole site data, the examples that may offer Run, the code that renders it), and the next
   * build reads it back, with the chapters' documents (see renderPage). Watch mode's start keeps
   * the route modules too (see routeSource); its later builds render the few changed chapters and
   * keep them in memory.
   */
  private contentDiskKey(page: PageModel, site: SiteData): string | undefined {
    const tree = this.options.treeKeyOf(page.hast!);
    if (!this.usesDisk || tree === undefined) return undefined;
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
    const content = this.usesDisk && page.hast && this.contentKeys.get(page.hast);
    const { pybookVersion, bodyScript } = this.options;
    const diskKey = content
      ? hashText(content, pybookVersion, page.outputFile, siteKey, pageJson).slice(0, 40)
      : undefined;
    const stored =
      diskKey === undefined ? undefined : this.disk.read(this.documentsNamespace, diskKey)?.toString('utf8');
    const document = stored ?? renderDocument(site, page, pageJson, html, { ...options, pybookVersion, bodyScript });
    if (diskKey !== undefined && stored === undefined) this.disk.write(this.documentsNamespace, diskKey, document);
    if (this.keepsRendered) this.rendered.set(page.outputFile, { siteKey, pageJson, html, document });
    return document;
  }
}
