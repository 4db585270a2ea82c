import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { watch } from 'chokidar';
import { Builder, type BuildResult } from '../generator/build.js';
import { assertSafeOutputDir, protectedFoldersOf } from '../output/guard.js';
import { recoverOutputDir, writeSiteAtomically, type SiteFiles } from '../output/write-site.js';
import { loadConfig } from '../config/load-config.js';
import { startStaticServer, type RunningServer } from '../server/static-server.js';
import { formatError } from '../shared/errors.js';
import { LiveReloadHub, liveReloadScript, PAGE_FINGERPRINT_PLACEHOLDER, pageFingerprint } from '../watch/live-reload.js';
import { syncOutput } from '../watch/sync-output.js';
import { closeOnSignals } from './serve.js';
import { printWarnings } from './report.js';
import { localesOf } from '../book/load-book.js';

/** The search files, which watch mode writes after the pages. */
const SEARCH_FILE = /(^|\/)search-(index|text)\.json$/;
const SEARCH_DELAY_MS = 150;

export interface WatchCommandOptions { config: string; outDir: string; port: number; host: string }

export interface WatchSession {
  server: RunningServer;
  /** Resolves after the rebuild that the latest change started has finished. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Routes whose HTML file is among the changed output files. */
function changedRoutes(basePath: string, changed: string[]): string[] {
  return changed.filter((f) => f.endsWith('index.html')).map((f) => basePath + f.slice(0, -'index.html'.length));
}

/**
 * `pybook watch`: builds, serves, and rebuilds on every change to the chapters, the config or
 * the templates. Only changed output files are written; browsers showing a changed page reload.
 * A failed rebuild keeps the last good site and shows the error in the terminal and the browser.
 */
export async function startWatch(options: WatchCommandOptions, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<WatchSession> {
  const configPath = path.resolve(options.config);
  const config = loadConfig(configPath);
  assertSafeOutputDir(options.outDir, protectedFoldersOf(config));
  recoverOutputDir(options.outDir);
  let files: SiteFiles = new Map();
  // Fingerprints of the current build's HTML files, computed when first asked for.
  let fingerprints = new Map<string, string>();
  const fingerprintOf = (name: string): string | undefined => {
    const contents = files.get(name);
    if (typeof contents !== 'string') return undefined;
    let fingerprint = fingerprints.get(name);
    if (fingerprint === undefined) fingerprints.set(name, (fingerprint = pageFingerprint(contents)));
    return fingerprint;
  };
  const hub = new LiveReloadHub(config.basePath, (urlPath) => {
    if (!urlPath.startsWith(config.basePath)) return undefined;
    let name: string;
    try {
      name = decodeURIComponent(urlPath.slice(config.basePath.length));
    } catch {
      return undefined;
    }
    return fingerprintOf(name === '' || name.endsWith('/') ? `${name}index.html` : name.endsWith('.html') ? name : `${name}/index.html`);
  });
  const makeBuilder = () => new Builder({ configPath, bodyExtra: liveReloadScript(config.basePath), dev: true });
  let builder = makeBuilder();

  const first: BuildResult = await builder.build();
  files = new Map([...first.files, ...(first.deferredSearch?.() ?? [])]);
  writeSiteAtomically(options.outDir, files, first.staticDirs, { protect: protectedFoldersOf(first.config), staticRoot: first.config.rootDir });
  printWarnings(first.warnings);

  const server = await startStaticServer({
    dir: options.outDir, basePath: config.basePath, host: options.host, port: options.port,
    localeDirs: localesOf(config).filter((l) => !l.isDefault).map((l) => l.path), handleExtra: hub.handle, log,
    // Each page tells the live-reload stream which version it shows (see LiveReloadHub).
    transformHtml: (html) => {
      // The script sits at the end of the body: replace the last occurrence, never chapter text.
      const at = html.lastIndexOf(PAGE_FINGERPRINT_PLACEHOLDER);
      return at < 0 ? html : html.slice(0, at) + pageFingerprint(html) + html.slice(at + PAGE_FINGERPRINT_PLACEHOLDER.length);
    },
  });
  log(`Watching ${path.relative(process.cwd(), path.resolve(config.rootDir, config.contentDir)) || '.'}/ — serving at ${server.url}`);

  let running: Promise<void> = Promise.resolve();
  let pending = false;
  const rebuild = (reason: string, full: boolean) => {
    if (full) builder = makeBuilder();
    if (pending) return;
    pending = true;
    running = running.then(async () => {
      pending = false;
      const started = performance.now();
      try {
        const result = await builder.build();
        // Pages first (the search files of the last build stay until the new ones are ready).
        const pagesOut = new Map(result.files);
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
        const message = formatError(error);
        hub.send({ type: 'build-error', message });
        log(`error: ${message}\n(the last good version is still being served)`);
      }
    });
  };

  const watcher = watch([path.resolve(config.rootDir, config.contentDir), configPath, path.resolve(config.rootDir, 'templates')], {
    ignoreInitial: true,
    // Editors (and writeFileSync) truncate, then write: without waiting for the size to settle,
    // a build can read the empty file and the write's own event may never come. Both happen
    // within microseconds; 10 ms of unchanged size is plenty and keeps the edit-to-browser time short.
    awaitWriteFinish: { stabilityThreshold: 10, pollInterval: 5 },
  });
  watcher.on('all', (event, file) => rebuild(`${event} ${path.relative(process.cwd(), file)}`, file === configPath));
  watcher.on('error', (error) => log(`watcher: ${(error as Error).message}`));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));

  return {
    server,
    idle: async () => { await running; },
    close: async () => { await watcher.close(); hub.close(); await server.close(); },
  };
}

export async function runWatch(options: WatchCommandOptions): Promise<void> {
  const session = await startWatch(options);
  closeOnSignals(session.server, () => session.close());
}
