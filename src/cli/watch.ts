import { existsSync, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { watch, type FSWatcher } from 'chokidar';
import { localesOf } from '../book/load-book.js';
import { Builder, type BuildResult } from '../generator/build.js';
import { TEMPLATE_FILE } from '../generator/render-page.js';
import { loadConfig } from '../config/load-config.js';
import type { BookConfig } from '../config/types.js';
import { assertSafeOutputDir, protectedFoldersOf } from '../output/guard.js';
import { readStaticFiles } from '../output/static-files.js';
import { isProvenOutput } from '../output/manifest.js';
import { MARKER_FILE } from '../output/marker.js';
import { recoverOutputDir, writeSiteAtomically, type SiteFiles } from '../output/write-site.js';
import { startStaticServer, type RunningServer } from '../server/static-server.js';
import { formatError } from '../shared/errors.js';
import { isInsideFolder } from '../shared/paths.js';
import { LiveReloadHub, liveReloadScript, PAGE_FINGERPRINT_PLACEHOLDER, pageFingerprint, routeModuleJson, type LiveEvent } from '../watch/live-reload.js';
import { restoreOutputIfGone } from '../watch/restore-output.js';
import { syncOutput, syncOutputWithDisk } from '../watch/sync-output.js';
import { closeOnSignals } from './serve.js';
import { printWarnings } from './report.js';

/** The search files, which watch mode writes after the pages. */
const SEARCH_FILE = /(^|\/)(search-index\.json|search-text\/\d+\.json)$/;
const SEARCH_DELAY_MS = 150;
/**
 * At start, the search index (and jieba's dictionary, more than a second of work that holds the
 * server) waits until no request came for this long: the browser opened on the printed URL gets
 * its page, stylesheet and scripts first.
 */
const START_QUIET_MS = 300;
/** How long a failed build waits before it re-reads its inputs (an editor may be half way through a save). */
const SETTLE_BEFORE_REPORT_MS = 60;

export interface WatchCommandOptions {
  config: string; outDir: string; port: number; host: string;
  /** The HTML shell to render pages into and watch (default: pybook's templates/page.html). */
  templateFile?: string;
  /** When the start began (performance.now()), for "Ready in N ms"; default: when startWatch is called. */
  startedAt?: number;
}

export interface WatchSession {
  /** The server of the moment: a changed basePath starts a new one on the same port. */
  readonly server: RunningServer;
  /** Resolves after the rebuild that the latest change started has finished. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Routes whose HTML file is among the changed output files. */
function changedRoutes(basePath: string, changed: string[]): string[] {
  return changed.filter((f) => f.endsWith('index.html')).map((f) => basePath + f.slice(0, -'index.html'.length));
}

/** HTML files that differ between two builds' outputs (an unchanged page is the same string). */
function changedPages(previous: SiteFiles, next: SiteFiles): string[] {
  const changed: string[] = [];
  for (const [name, contents] of next) if (name.endsWith('.html') && previous.get(name) !== contents) changed.push(name);
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
    return new Set((JSON.parse(typeof marker === 'string' ? marker : '') as { contentNamed?: string[] }).contentNamed ?? []);
  } catch {
    return new Set();
  }
}

const isInside = (file: string, folder: string) => file === folder || isInsideFolder(file, folder);
const localeDirsOf = (config: BookConfig) => localesOf(config).filter((l) => !l.isDefault).map((l) => l.path);
const staticDirsOf = (config: BookConfig) => [path.resolve(config.rootDir, config.staticDir)];

/**
 * `pybook watch`: builds, serves, and rebuilds on every change to the chapters, the static files,
 * the config or the page template. The start works from the build cache on disk and serves as
 * soon as the pages are out; the search index (and jieba's dictionary) come after. Only changed
 * output files are written (and any that went missing); a tab showing a changed page gets it with
 * the reload event (see liveReloadScript). A failed rebuild keeps the last good site and shows the
 * error in the terminal and the browser. A config that moves the base path moves the server and
 * the open tabs with it.
 */
export async function startWatch(options: WatchCommandOptions, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<WatchSession> {
  const startedAt = options.startedAt ?? performance.now();
  const configPath = path.resolve(options.config);
  let config = loadConfig(configPath);
  assertSafeOutputDir(options.outDir, protectedFoldersOf(config));
  recoverOutputDir(options.outDir);

  let files: SiteFiles = new Map();
  let staticFiles: SiteFiles = new Map();
  // Fingerprints of the current build's HTML files, computed when first asked for.
  let fingerprints = new Map<string, string>();
  const fingerprintOf = (name: string): string | undefined => {
    const contents = files.get(name);
    if (typeof contents !== 'string') return undefined;
    let fingerprint = fingerprints.get(name);
    if (fingerprint === undefined) fingerprints.set(name, (fingerprint = pageFingerprint(contents)));
    return fingerprint;
  };
  const makeHub = (basePath: string) => new LiveReloadHub(basePath, (urlPath) => {
    if (!urlPath.startsWith(basePath)) return undefined;
    let name: string;
    try {
      name = decodeURIComponent(urlPath.slice(basePath.length));
    } catch {
      return undefined;
    }
    return fingerprintOf(name === '' || name.endsWith('/') ? `${name}index.html` : name.endsWith('.html') ? name : `${name}/index.html`);
  });
  const templateFile = options.templateFile ?? TEMPLATE_FILE;
  // The build cache on disk, as `pybook build` uses it: a start compiles only the chapters that
  // changed since the last build or watch session.
  const makeBuilder = (basePath: string) => new Builder({ configPath, bodyExtra: liveReloadScript(basePath), dev: true, diskCache: true, templateFile });
  const withStatic = (built: SiteFiles) => new Map([...staticFiles, ...built]);

  /** The latest build's search files, until they are written (see writeSearch). */
  let pendingSearch: (() => SiteFiles) | undefined;
  /** Writes the search files of the latest build, if they are not out yet. */
  const writeSearch = () => {
    const buildSearch = pendingSearch;
    if (!buildSearch) return;
    pendingSearch = undefined;
    const withSearch = new Map([...files, ...buildSearch()]);
    syncOutput(options.outDir, files, withSearch);
    files = withSearch;
  };
  let lastRequestAt = performance.now();
  let restoreFailed = false;
  const handleRequest = (req: IncomingMessage, res: ServerResponse): boolean => {
    lastRequestAt = performance.now();
    try {
      if (restoreOutputIfGone(options.outDir, files, protectedFoldersOf(config))) log(`${options.outDir} was deleted: written again from memory`);
      restoreFailed = false;
    } catch (error) {
      // Said once, not on every request until the folder is fixed.
      if (!restoreFailed) log(`error: ${options.outDir} was deleted and cannot be written again: ${formatError(error)}`);
      restoreFailed = true;
    }
    // A search before the index is out (just after the start, or just after a save) waits for it
    // instead of finding no file: build it now, then let the static server answer.
    if (pendingSearch && SEARCH_FILE.test(req.url?.split('?')[0] ?? '')) {
      try {
        writeSearch();
      } catch (error) {
        log(`error: the search index: ${formatError(error)}`);
      }
    }
    return hub.handle(req, res);
  };

  let hub = makeHub(config.basePath);
  let builder = makeBuilder(config.basePath);
  const first: BuildResult = await builder.build();
  staticFiles = readStaticFiles(staticDirsOf(config), config.rootDir);
  files = withStatic(first.files);
  pendingSearch = first.deferredSearch;
  // A folder pybook wrote before (the last session or build) is brought up to date in place:
  // most files are the same, and comparing them costs less than writing them all again.
  if (existsSync(options.outDir) && isProvenOutput(options.outDir)) syncOutputWithDisk(options.outDir, files, contentNamedOf(files));
  else writeSiteAtomically(options.outDir, files, [], { protect: protectedFoldersOf(config) });
  printWarnings(first.warnings);

  const serve = (basePath: string, localeDirs: string[], port: number) => startStaticServer({
    dir: options.outDir, basePath, host: options.host, port, localeDirs, handleExtra: handleRequest, log,
    // Each page tells the live-reload stream which version it shows (see LiveReloadHub).
    transformHtml: (html) => {
      // The script sits at the end of the body: replace the last occurrence, never chapter text.
      const at = html.lastIndexOf(PAGE_FINGERPRINT_PLACEHOLDER);
      return at < 0 ? html : html.slice(0, at) + pageFingerprint(html) + html.slice(at + PAGE_FINGERPRINT_PLACEHOLDER.length);
    },
  });
  let server = await serve(config.basePath, localeDirsOf(config), options.port);
  log(`Ready in ${Math.round(performance.now() - startedAt)} ms: watching ${path.relative(process.cwd(), path.resolve(config.rootDir, config.contentDir)) || '.'}/ — serving at ${server.url}`);

  /** A new base path or locale folders: open tabs are sent to the new address, then the server restarts there. */
  const moveServer = async (next: BookConfig) => {
    const from = config.basePath;
    hub.send({ type: 'moved', from, to: next.basePath });
    hub.close();
    await server.close();
    hub = makeHub(next.basePath);
    server = await serve(next.basePath, localeDirsOf(next), server.port);
    if (from !== next.basePath) log(`basePath changed from ${from} to ${next.basePath}: now serving at ${server.url}`);
  };

  let running: Promise<void> = Promise.resolve();
  let pending = false;
  let wakeWaiting: (() => void) | undefined;
  /**
   * Size and modification time of the chapters (and config) whose change events started the
   * rebuilds since the inputs were last checked. The same save often comes twice (chokidar
   * watches the file and its folder, and the second event waits while a build holds the event
   * loop): a second event with the same size and time is dropped. A real change hiding behind
   * them (a coarse clock) is caught by that check (inputsMovedOn), which every rebuild makes.
   */
  const seenChanges = new Map<string, string>();
  const inputsMovedOn = () => {
    seenChanges.clear();
    return builder.inputsChangedOnDisk();
  };
  let needsStatic = false;
  const rebuild = (reason: string, full: boolean, staticChanged: boolean) => {
    if (full) {
      // The live-reload script carries the base path: a new config may move it.
      let basePath = config.basePath;
      try {
        basePath = loadConfig(configPath).basePath;
      } catch {
        // the build below reports the config error
      }
      builder.flushCache();
      builder = makeBuilder(basePath);
    }
    needsStatic ||= staticChanged || full;
    // A rebuild waiting to write its search index lets this one go first (see below).
    wakeWaiting?.();
    if (pending) return;
    pending = true;
    running = running.then(async () => {
      pending = false;
      const started = performance.now();
      try {
        const result = await builder.build();
        const next = result.config;
        if (needsStatic) {
          assertSafeOutputDir(options.outDir, protectedFoldersOf(next));
          staticFiles = readStaticFiles(staticDirsOf(next), next.rootDir);
          needsStatic = false;
        }
        if (next.basePath !== config.basePath || localeDirsOf(next).join() !== localeDirsOf(config).join()) await moveServer(next);
        if (next.contentDir !== config.contentDir || next.staticDir !== config.staticDir) watchInputs(next);
        config = next;
        // Pages first (the search files of the last build stay until the new ones are ready).
        const pagesOut = withStatic(result.files);
        for (const [name, contents] of files) if (SEARCH_FILE.test(name)) pagesOut.set(name, contents);
        const previous = files;
        files = pagesOut;
        pendingSearch = result.deferredSearch;
        fingerprints = new Map();
        // The tabs hear first: a tab showing the changed page gets it with the event and needs
        // nothing from the server; one that reloads is answered after the files below are written
        // (this is all one turn of the event loop).
        hub.send(reloadEvent(result, files, changedRoutes(config.basePath, changedPages(previous, files))));
        const changed = syncOutput(options.outDir, previous, files);
        printWarnings(result.warnings);
        log(`rebuilt (${reason}) in ${Math.round(performance.now() - started)} ms, ${changed.length} file${changed.length === 1 ? '' : 's'} changed`);
        // Let the browsers show the changed page first: what follows holds the server.
        await new Promise<void>((resolve) => {
          wakeWaiting = resolve;
          setTimeout(resolve, SEARCH_DELAY_MS);
        });
        wakeWaiting = undefined;
        // Another save came in meanwhile: its rebuild goes first and builds the index itself.
        if (pending) return;
        // A save caught half way that still built (see watchInputs): build what is on disk now.
        if (inputsMovedOn()) {
          rebuild(`${reason}, read again`, false, false);
          return;
        }
        writeSearch();
        builder.flushCache();
      } catch (error) {
        // A save caught half way (truncated, then written) reads as a broken chapter: look again
        // before reporting, and rebuild instead if the file has moved on.
        await new Promise((resolve) => setTimeout(resolve, SETTLE_BEFORE_REPORT_MS));
        if (inputsMovedOn()) {
          rebuild(`${reason}, read again`, false, false);
          return;
        }
        const message = formatError(error);
        hub.send({ type: 'build-error', message });
        log(`error: ${message}\n(the last good version is still being served)`);
      }
    });
  };

  let watchers: FSWatcher[] = [];
  const watchInputs = (current: BookConfig) => {
    for (const watcher of watchers) void watcher.close();
    const contentDir = path.resolve(current.rootDir, current.contentDir);
    const staticDirs = staticDirsOf(current);
    const folders = [contentDir, ...staticDirs.filter((dir) => !isInside(dir, contentDir)), path.dirname(templateFile)];
    const isChapter = (file: string) => file.endsWith('.mdx');
    const onEvent = (event: string, file: string, stats?: Stats) => {
      if (file === path.dirname(configPath)) return;
      const full = file === configPath;
      if (event === 'change' && stats && (full || isChapter(file))) {
        const signature = `${stats.size} ${stats.mtimeMs}`;
        if (seenChanges.get(file) === signature) return;
        seenChanges.set(file, signature);
      }
      rebuild(`${event} ${path.relative(process.cwd(), file)}`, full, staticDirs.some((dir) => isInside(file, dir)));
    };
    // Editors (and writeFileSync) truncate, then write, and chokidar drops a file's events that
    // follow its last one by less than 5 ms: a build can read the file half saved, and the write's
    // own event may never come. Chapters and the config are built at once, without waiting for
    // their size to settle (10 ms and more of every save's time): the Builder knows what it read,
    // and a half-saved file is read again, before an error is reported (an empty chapter has no
    // front matter) and after a build that succeeded (see rebuild). Other files (images, the
    // template) are not checked so: for them chokidar waits until the size is unchanged for 10 ms.
    const chapters = watch(contentDir, { ignoreInitial: true, ignored: (file, stats) => stats !== undefined && stats.isFile() && !isChapter(file) });
    const awaitWriteFinish = { stabilityThreshold: 10, pollInterval: 5 };
    const others = watch([...folders], { ignoreInitial: true, awaitWriteFinish, ignored: isChapter });
    // The config is watched through its folder: `git checkout` and many editors delete and
    // recreate the file, which a watch on the file itself would not survive.
    const configFolder = path.dirname(configPath);
    const configWatcher = watch(configFolder, { ignoreInitial: true, depth: 0, ignored: (file) => file !== configFolder && file !== configPath });
    watchers = [chapters, others, configWatcher];
    for (const watcher of watchers) {
      watcher.on('all', onEvent);
      watcher.on('error', (error) => log(`watcher: ${(error as Error).message}`));
    }
    return Promise.all(watchers.map((watcher) => new Promise<void>((resolve) => watcher.once('ready', () => resolve()))));
  };
  await watchInputs(config);

  // The search index, the build cache's new entries, and jieba's dictionary for later rebuilds,
  // once the first page is served. It runs in the rebuild queue, so that a save meanwhile waits
  // for it instead of racing it.
  let closed = false;
  let searchTimer: NodeJS.Timeout | undefined;
  const startSearch = () => {
    const quietFor = performance.now() - lastRequestAt;
    if (quietFor < START_QUIET_MS) {
      searchTimer = setTimeout(startSearch, START_QUIET_MS - quietFor);
      return;
    }
    running = running.then(() => {
      if (closed) return;
      const searchStarted = performance.now();
      try {
        writeSearch();
        builder.flushCache();
        builder.loadSegmenter();
        log(`search index ready (${Math.round(performance.now() - searchStarted)} ms)`);
      } catch (error) {
        log(`error: the search index: ${formatError(error)}`);
      }
    });
  };
  searchTimer = setTimeout(startSearch, START_QUIET_MS);

  return {
    get server() { return server; },
    idle: async () => {
      // A rebuild may queue another one (a save read again): wait until none is left.
      let seen: Promise<void>;
      do {
        seen = running;
        await seen;
      } while (seen !== running || pending);
    },
    close: async () => {
      closed = true;
      clearTimeout(searchTimer);
      // What the next start will want from the cache, had the search step not come yet.
      builder.flushCache();
      await Promise.all(watchers.map((w) => w.close()));
      hub.close();
      await server.close();
    },
  };
}

export async function runWatch(options: WatchCommandOptions): Promise<void> {
  // The command counts from the start of the process: what the author waits for.
  const session = await startWatch({ ...options, startedAt: 0 });
  closeOnSignals(() => session.server, () => session.close());
}
