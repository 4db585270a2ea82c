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
import { recoverOutputDir, writeSiteAtomically, type SiteFiles } from '../output/write-site.js';
import { startStaticServer, type RunningServer } from '../server/static-server.js';
import { formatError } from '../shared/errors.js';
import { isInsideFolder } from '../shared/paths.js';
import { LiveReloadHub, liveReloadScript, PAGE_FINGERPRINT_PLACEHOLDER, pageFingerprint } from '../watch/live-reload.js';
import { syncOutput } from '../watch/sync-output.js';
import { closeOnSignals } from './serve.js';
import { printWarnings } from './report.js';

/** The search files, which watch mode writes after the pages. */
const SEARCH_FILE = /(^|\/)search-(index|text)\.json$/;
const SEARCH_DELAY_MS = 150;
/** How long a failed build waits before it re-reads its inputs (an editor may be half way through a save). */
const SETTLE_BEFORE_REPORT_MS = 60;

export interface WatchCommandOptions {
  config: string; outDir: string; port: number; host: string;
  /** The HTML shell to render pages into and watch (default: pybook's templates/page.html). */
  templateFile?: string;
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

const isInside = (file: string, folder: string) => file === folder || isInsideFolder(file, folder);
const localeDirsOf = (config: BookConfig) => localesOf(config).filter((l) => !l.isDefault).map((l) => l.path);
const staticDirsOf = (config: BookConfig) => [path.resolve(config.rootDir, config.staticDir)];

/**
 * `pybook watch`: builds, serves, and rebuilds on every change to the chapters, the static files,
 * the config or the page template. Only changed output files are written (and any that went
 * missing); browsers showing a changed page reload. A failed rebuild keeps the last good site and
 * shows the error in the terminal and the browser. A config that moves the base path moves the
 * server and the open tabs with it.
 */
export async function startWatch(options: WatchCommandOptions, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<WatchSession> {
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
  const makeBuilder = (basePath: string) => new Builder({ configPath, bodyExtra: liveReloadScript(basePath), dev: true, templateFile });
  const withStatic = (built: SiteFiles) => new Map([...staticFiles, ...built]);

  let hub = makeHub(config.basePath);
  let builder = makeBuilder(config.basePath);
  const first: BuildResult = await builder.build();
  staticFiles = readStaticFiles(staticDirsOf(config), config.rootDir);
  files = withStatic(new Map([...first.files, ...(first.deferredSearch?.() ?? [])]));
  writeSiteAtomically(options.outDir, files, [], { protect: protectedFoldersOf(config) });
  printWarnings(first.warnings);

  const serve = (basePath: string, localeDirs: string[], port: number) => startStaticServer({
    dir: options.outDir, basePath, host: options.host, port, localeDirs, handleExtra: hub.handle, log,
    // Each page tells the live-reload stream which version it shows (see LiveReloadHub).
    transformHtml: (html) => {
      // The script sits at the end of the body: replace the last occurrence, never chapter text.
      const at = html.lastIndexOf(PAGE_FINGERPRINT_PLACEHOLDER);
      return at < 0 ? html : html.slice(0, at) + pageFingerprint(html) + html.slice(at + PAGE_FINGERPRINT_PLACEHOLDER.length);
    },
  });
  let server = await serve(config.basePath, localeDirsOf(config), options.port);
  log(`Watching ${path.relative(process.cwd(), path.resolve(config.rootDir, config.contentDir)) || '.'}/ — serving at ${server.url}`);

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
      builder = makeBuilder(basePath);
    }
    needsStatic ||= staticChanged || full;
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
        const changed = syncOutput(options.outDir, files, pagesOut);
        files = pagesOut;
        fingerprints = new Map();
        printWarnings(result.warnings);
        hub.send({ type: 'reload', routes: changedRoutes(config.basePath, changed) });
        log(`rebuilt (${reason}) in ${Math.round(performance.now() - started)} ms, ${changed.length} file${changed.length === 1 ? '' : 's'} changed`);
        if (result.deferredSearch) {
          // Let the browsers fetch the changed page first: building the index blocks the server.
          await new Promise((resolve) => setTimeout(resolve, SEARCH_DELAY_MS));
          // Another save came in meanwhile: its rebuild goes first and builds the index itself.
          if (pending) return;
          const withSearch = new Map([...files, ...result.deferredSearch()]);
          syncOutput(options.outDir, files, withSearch);
          files = withSearch;
        }
      } catch (error) {
        // A save caught half way (truncated, then written) reads as a broken chapter: look again
        // before reporting, and rebuild instead if the file has moved on.
        await new Promise((resolve) => setTimeout(resolve, SETTLE_BEFORE_REPORT_MS));
        if (builder.inputsChangedOnDisk()) {
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
    const onEvent = (event: string, file: string) => {
      if (file === path.dirname(configPath)) return;
      const full = file === configPath;
      rebuild(`${event} ${path.relative(process.cwd(), file)}`, full, staticDirs.some((dir) => isInside(file, dir)));
    };
    // Editors (and writeFileSync) truncate, then write: without waiting for the size to settle,
    // a build can read the empty file and the write's own event may never come. Both happen
    // within microseconds; 10 ms of unchanged size is plenty and keeps the edit-to-browser time short.
    const awaitWriteFinish = { stabilityThreshold: 10, pollInterval: 5 };
    const inputs = watch(folders, { ignoreInitial: true, awaitWriteFinish });
    // The config is watched through its folder: `git checkout` and many editors delete and
    // recreate the file, which a watch on the file itself would not survive.
    const configFolder = path.dirname(configPath);
    const configWatcher = watch(configFolder, { ignoreInitial: true, depth: 0, awaitWriteFinish, ignored: (file) => file !== configFolder && file !== configPath });
    for (const watcher of [inputs, configWatcher]) {
      watcher.on('all', onEvent);
      watcher.on('error', (error) => log(`watcher: ${(error as Error).message}`));
    }
    watchers = [inputs, configWatcher];
    return Promise.all(watchers.map((watcher) => new Promise<void>((resolve) => watcher.once('ready', () => resolve()))));
  };
  await watchInputs(config);

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
    close: async () => { await Promise.all(watchers.map((w) => w.close())); hub.close(); await server.close(); },
  };
}

export async function runWatch(options: WatchCommandOptions): Promise<void> {
  const session = await startWatch(options);
  closeOnSignals(() => session.server, () => session.close());
}
