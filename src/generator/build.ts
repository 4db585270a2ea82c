import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadBook } from '../book/load-book.js';
import type { BookModel } from '../shared/model/book.js';
import { loadConfig } from '../config/load-config.js';
import type { BookConfig } from '../shared/model/config.js';
import type { Warning } from '../shared/model/chapter.js';
import { assembleSite, type CompiledBook } from '../pages/assemble.js';
import type { PageModel, SiteData } from '../shared/model/page.js';
import { bundleClient, type ClientBundle } from '../bundler/bundle-client.js';
import { DiskCache, hashText } from '../cache/disk-cache.js';
import { ChapterCompiler } from './steps/compile-chapters.js';
import { SearchIndexer } from './steps/search-indexes.js';
import { checkBookLinks } from './steps/check-links.js';
import { PageRenderer } from './steps/render-pages.js';
import type { BodyScript } from './render-page.js';
import { loadShellRenderer } from './shell-renderer.js';
import { renderSitemap } from './sitemap.js';
import { MARKER_FILE, markerJson } from '../output/marker.js';
import type { SiteFiles } from '../output/write-site.js';
import { exerciseKey, exerciseTestsKey, readBrowserVerdicts } from '../runner/build/browser-check-file.js';
import { runnerAssets } from '../runner/build/site-assets.js';
import { offlineBuild, retiringWorkerScript } from '../offline/node/offline-build.js';
import { WORKER_FILE } from '../offline/shared/offline-data.js';
import { markdownSiteFiles } from '../llms/site-files.js';
import type { BuildMode } from './steps/build-mode.js';

const pybookVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** What a build is for: see steps/build-mode.ts. */
export type { BuildMode };

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
  pages: PageRenderer;
}

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
  private bundle?: Promise<ClientBundle>;
  /** The build cache and the steps that use it, made once the config says where it is (see readInputs). */
  private cached?: { disk: DiskCache; steps: BuildSteps };
  /** The text of every input file the last build read (the config and chapters), by path. */
  private inputs = new Map<string, string | undefined>();

  /** Watch mode (see BuildMode). */
  private readonly watching: boolean;

  constructor(private readonly options: BuildOptions) {
    this.watching = options.mode === 'watch';
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
    const { config, book, disk, steps } = this.readInputs();
    const bundle = this.startClientBundle(config, disk);

    progress('compiling chapters');
    const compiled = await steps.chapters.compile(book);
    const { sites, pages } = assembleSite(book, compiled);

    progress('checking links');
    const { staticDirs, warnings } = checkBookLinks(config, pages);
    const runnable = steps.pages.useVerdicts(readBrowserVerdicts(config), compiled, warnings);
    for (const [locale, chapters] of Object.entries(compiled))
      sites[locale].exercises = checkableExercises(chapters, runnable);

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
    const runner = await runnerAssets(config, disk);
    for (const [name, contents] of runner.files) files.set(name, contents);
    contentNamed.push(...runner.contentNamed);

    // Reading offline (src/offline/): the worker's place in the site data, its head on every page.
    const offline = offlineBuild({
      config,
      book,
      sites,
      staticDirs,
      client,
      runner,
      disk,
      dev: this.watching,
      pybookVersion,
    });

    progress('rendering pages');
    const shell = await loadShellRenderer();
    const input = { config, book, pages, sites, files, contentNamed, client, runner, shell, offline };
    const documents = steps.pages.render(input);
    files.set(
      'sitemap.xml',
      await renderSitemap(pages, config.siteUrl, config.sitemap.changefreq, config.sitemap.priority),
    );
    files.set(MARKER_FILE, markerJson(contentNamed));
    files.set('robots.txt', `User-agent: *\nAllow: /\n\nSitemap: ${config.siteUrl}${config.basePath}sitemap.xml\n`);

    // The web app manifests, and the worker with the build's files (after the pages: it lists their revisions).
    const written = offline ? await offline.finish(files, documents, pages) : documents;
    // Turned off: only the worker that removes an earlier build's (see retiringWorkerScript).
    if (!config.offline.enabled && !this.watching) files.set(WORKER_FILE, retiringWorkerScript(config.basePath));
    this.pruneCache(disk, steps);
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
  private readInputs(): { config: BookConfig; book: BookModel; disk: DiskCache; steps: BuildSteps } {
    this.inputs = new Map([[path.resolve(this.options.configPath), readTextOrUndefined(this.options.configPath)]]);
    const config = loadConfig(this.options.configPath);
    const book = loadBook(config);
    for (const locale of book.locales)
      for (const chapter of book.chapters[locale.code]) this.inputs.set(chapter.file, chapter.source);
    this.cached ??= this.openCache(config);
    // Watch mode writes the cache once the pages are out, or the edit shown (see flushCache).
    if (this.watching) this.cached.disk.deferWrites();
    return { config, book, ...this.cached };
  }

  private openCache(config: BookConfig): { disk: DiskCache; steps: BuildSteps } {
    const disk = DiskCache.forBook(config.rootDir, this.options.diskCache === true);
    const { mode = 'in-memory', threads, compileBudgetMs, bodyScript, templateFile } = this.options;
    const chapters = new ChapterCompiler(disk, { mode, threads, compileBudgetMs });
    const search = new SearchIndexer(disk, this.watching);
    const treeKeyOf = (tree: object) => chapters.treeKeyOf(tree);
    const pages = new PageRenderer(disk, { mode, pybookVersion, bodyScript, templateFile, treeKeyOf });
    return { disk, steps: { chapters, search, pages } };
  }

  /**
   * Drops cache entries no build uses any more: each step's own, and the client's and the
   * runner's. Watch mode prunes at its first build only (later builds would just spend the time),
   * and never the search entries of `pybook build` (see SearchIndexer) nor its offline worker.
   */
  private pruneCache(disk: DiskCache, steps: BuildSteps): void {
    if (this.watching && steps.pages.pruned) return;
    disk.prune('chapters');
    disk.prune('client');
    disk.prune('runner');
    // Watch mode makes neither the offline worker nor `pybook build`'s search entries.
    if (!this.watching) for (const namespace of ['search', 'offline'] as const) disk.prune(namespace);
    steps.pages.prune();
  }

  /** Starts bundling the client while the chapters compile; a failed bundle is not kept for the next build. */
  private startClientBundle(config: BookConfig, disk: DiskCache): Promise<ClientBundle> {
    this.bundle ??= bundleClient(config.basePath, disk);
    // This build awaits its own bundle (and so reports its real error).
    const bundle = this.bundle;
    bundle.catch(() => {
      if (this.bundle === bundle) this.bundle = undefined;
    });
    return bundle;
  }

  /** Watch mode: writes the build cache entries that its builds held back. */
  flushCache(): void {
    this.cached?.disk.flush();
  }

  /**
   * Watch mode: loads jieba's full dictionary now (more than a second) instead of at the first
   * edit, which would then wait for it. Watch mode calls it once its first page is served.
   */
  loadSegmenter(): void {
    this.cached?.steps.search.loadSegmenter();
  }

  /** Cache-busting version of a file: its content hash, or a constant in watch mode (see BuildMode). */
  private version(contents: string): string {
    return this.watching ? 'dev' : hashText(contents).slice(0, 10);
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
