import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { localesOf } from '../book/load-book.js';
import { loadConfig } from '../config/load-config.js';
import type { BookConfig } from '../shared/model/config.js';
import { Builder, type BuildResult } from '../generator/build.js';
import { TEMPLATE_FILE } from '../generator/render-page.js';
import { DiskCache } from '../cache/disk-cache.js';
import { assertSafeOutputDir, protectedFoldersOf } from '../output/guard.js';
import { readStaticFiles } from '../output/static-files.js';
import { recoverOutputDir } from '../output/write-site.js';
import { startStaticServer, type RunningServer } from '../server/static-server.js';
import { refuseWorker } from '../offline/node/watch-mode.js';
import { formatError, formatWarning } from '../core/errors.js';
import { InputWatchers, staticDirsOf, type InputChange } from './input-watchers.js';
import {
  LiveReloadHub,
  liveReloadCode,
  liveReloadScript,
  PAGE_FINGERPRINT_PLACEHOLDER,
  pageFingerprint,
} from './live-reload.js';
import { RebuildQueue } from './rebuild-queue.js';
import { SEARCH_FILE, ServedSite } from './served-site.js';

/** How long a rebuild lets the browsers fetch the changed pages before it builds the search index. */
const SEARCH_DELAY_MS = 150;
/**
 * At start, the search index (and jieba's dictionary, more than a second of work that holds the
 * server) waits until no request came for this long: the browser opened on the printed URL gets
 * its page, stylesheet and scripts first.
 */
const START_QUIET_MS = 300;
/** How long a failed build waits before it re-reads its inputs (an editor may be half way through a save). */
const SETTLE_BEFORE_REPORT_MS = 60;

export interface WatchOptions {
  config: string;
  outDir: string;
  port: number;
  host: string;
  /** The HTML shell to render pages into and watch (default: pybook's templates/page.html). */
  templateFile?: string;
  /** When the start began (performance.now()), for "Ready in N ms"; default: when the session starts. */
  startedAt?: number;
}

const localeDirsOf = (config: BookConfig) =>
  localesOf(config)
    .filter((l) => !l.isDefault)
    .map((l) => l.path);

/**
 * `pybook watch`: builds, serves, and rebuilds on every change to the chapters, the static files,
 * the config or the page template. The start works from the build cache on disk and serves as
 * soon as the pages are out; the search index (and jieba's dictionary) come after. Only changed
 * output files are written (and any that went missing); a tab showing a changed page gets it with
 * the reload event (see src/watch/client/live-reload.ts). A failed rebuild keeps the last good site and shows the
 * error in the terminal and the browser. A config that moves the base path moves the server and
 * the open tabs with it.
 *
 * Rebuilds and the search index run one after another (RebuildQueue); saves that come while a
 * rebuild runs are folded into a single next rebuild.
 */
export class WatchSession {
  private readonly templateFile: string;
  private readonly site: ServedSite;
  private readonly inputs: InputWatchers;
  private builder: Builder;
  private hub: LiveReloadHub;
  private currentServer!: RunningServer;
  private readonly queue = new RebuildQueue();
  private needsStatic = false;
  private lastRequestAt = performance.now();
  private restoreFailed = false;
  private closed = false;
  private searchTimer: NodeJS.Timeout | undefined;

  /** Builds, writes, serves and watches; resolves once the site is served and the watchers are ready. */
  static async start(
    options: WatchOptions,
    log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
  ): Promise<WatchSession> {
    const startedAt = options.startedAt ?? performance.now();
    const configPath = path.resolve(options.config);
    const config = loadConfig(configPath);
    // Refused before anything is made or written (the build cache, the client's bundle).
    assertSafeOutputDir(options.outDir, protectedFoldersOf(config));
    // Bundled once per session (from the build cache when it has not changed): it is the same on every page.
    const liveReload = await liveReloadCode(DiskCache.forBook(config.rootDir, true));
    const session = new WatchSession(options, log, configPath, config, liveReload);
    await session.buildFirst();
    session.currentServer = await session.serve(session.config, options.port);
    log(
      `Ready in ${Math.round(performance.now() - startedAt)} ms: watching ${session.contentFolderForLog()} — serving at ${session.server.url}`,
    );
    await session.inputs.watch(session.config);
    session.searchTimer = setTimeout(() => session.buildSearchWhenQuiet(), START_QUIET_MS);
    return session;
  }

  private constructor(
    private readonly options: WatchOptions,
    private readonly log: (line: string) => void,
    private readonly configPath: string,
    private config: BookConfig,
    /** The live-reload client's code (see makeBuilder). */
    private readonly liveReload: string,
  ) {
    this.templateFile = options.templateFile ?? TEMPLATE_FILE;
    recoverOutputDir(options.outDir);
    this.site = new ServedSite(options.outDir);
    this.inputs = new InputWatchers(this.configPath, this.templateFile, (change) => this.rebuild(change), log);
    this.builder = this.makeBuilder(this.config.basePath);
    this.hub = this.makeHub(this.config.basePath);
  }

  /** The server of the moment: a changed basePath starts a new one on the same port. */
  get server(): RunningServer {
    return this.currentServer;
  }

  /** Resolves after the rebuild that the latest change started has finished. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.searchTimer);
    // What the next start will want from the cache, had the search step not come yet.
    this.builder.flushCache();
    await this.inputs.close();
    this.hub.close();
    await this.currentServer.close();
  }

  /** Warnings go to the session's log, with its other lines (the terminal, or a test's list). */
  private logWarnings(warnings: BuildResult['warnings']): void {
    for (const warning of warnings) this.log(formatWarning(warning));
  }

  private async buildFirst(): Promise<void> {
    const first = await this.builder.build();
    this.site.setStaticFiles(readStaticFiles(staticDirsOf(this.config), this.config.rootDir));
    this.site.writeFirst(first, protectedFoldersOf(this.config));
    this.logWarnings(first.warnings);
  }

  /**
   * The build cache on disk, as `pybook build` uses it: a start compiles only the chapters that
   * changed since the last build or watch session. The live-reload script carries the base path.
   */
  private makeBuilder(basePath: string): Builder {
    return new Builder({
      configPath: this.configPath,
      bodyScript: liveReloadScript(this.liveReload, basePath),
      mode: 'watch',
      diskCache: true,
      templateFile: this.templateFile,
    });
  }

  private makeHub(basePath: string): LiveReloadHub {
    return new LiveReloadHub(basePath, (urlPath) => this.site.fingerprintAt(basePath, urlPath));
  }

  private serve(config: BookConfig, port: number): Promise<RunningServer> {
    return startStaticServer({
      dir: this.options.outDir,
      basePath: config.basePath,
      host: this.options.host,
      port,
      localeDirs: localeDirsOf(config),
      handleExtra: (req, res) => this.handleRequest(req, res),
      log: this.log,
      // Each page tells the live-reload stream which version it shows (see LiveReloadHub).
      transformHtml: (html) => {
        // The script sits at the end of the body: replace the last occurrence, never chapter text.
        const at = html.lastIndexOf(PAGE_FINGERPRINT_PLACEHOLDER);
        return at < 0
          ? html
          : html.slice(0, at) + pageFingerprint(html) + html.slice(at + PAGE_FINGERPRINT_PLACEHOLDER.length);
      },
    });
  }

  /** Before the static server answers: the output folder written again if it was deleted, the search files if asked for. */
  private handleRequest(req: IncomingMessage, res: ServerResponse): boolean {
    this.lastRequestAt = performance.now();
    if (refuseWorker(req, res, this.config.basePath)) return true;
    this.restoreOutputIfGone();
    // A search before the index is out (just after the start, or just after a save) waits for it
    // instead of finding no file: build it now, then let the static server answer.
    if (this.site.searchPending && SEARCH_FILE.test(req.url?.split('?')[0] ?? '')) {
      try {
        this.site.writeSearch();
      } catch (error) {
        this.log(`error: the search index: ${formatError(error)}`);
      }
    }
    return this.hub.handle(req, res);
  }

  private restoreOutputIfGone(): void {
    const outDir = this.options.outDir;
    try {
      if (this.site.restoreIfGone(protectedFoldersOf(this.config)))
        this.log(`${outDir} was deleted: written again from memory`);
      this.restoreFailed = false;
    } catch (error) {
      // Said once, not on every request until the folder is fixed.
      if (!this.restoreFailed)
        this.log(`error: ${outDir} was deleted and cannot be written again: ${formatError(error)}`);
      this.restoreFailed = true;
    }
  }

  /** Queues a rebuild for a change; changes that come while one waits are folded into it. */
  private rebuild(change: InputChange): void {
    if (change.config) this.startOverForNewConfig();
    this.needsStatic ||= change.staticFiles || change.config;
    // A rebuild pausing before its search index lets this one go first (see runRebuild).
    this.queue.requestRebuild(() => this.runRebuild(change.reason));
  }

  /** A new config: a new Builder (nothing cached in memory survives), with the base path it may have moved. */
  private startOverForNewConfig(): void {
    let basePath = this.config.basePath;
    try {
      basePath = loadConfig(this.configPath).basePath;
    } catch {
      // the build reports the config error
    }
    this.builder.flushCache();
    this.builder = this.makeBuilder(basePath);
  }

  private async runRebuild(reason: string): Promise<void> {
    const started = performance.now();
    try {
      const result = await this.builder.build();
      await this.adoptConfig(result.config);
      const changed = this.publish(result);
      this.logWarnings(result.warnings);
      this.log(
        `rebuilt (${reason}) in ${Math.round(performance.now() - started)} ms, ${changed.length} file${changed.length === 1 ? '' : 's'} changed`,
      );
      // Let the browsers show the changed page first: what follows holds the server.
      await this.queue.pause(SEARCH_DELAY_MS);
      // Another save came in meanwhile: its rebuild goes first and builds the index itself.
      if (this.queue.newerRebuildWaiting) return;
      // A save caught half way that still built (see InputWatchers): build what is on disk now.
      if (this.inputsMovedOn())
        return this.rebuild({ reason: `${reason}, read again`, config: false, staticFiles: false });
      this.site.writeSearch();
      this.builder.flushCache();
    } catch (error) {
      // A save caught half way (truncated, then written) reads as a broken chapter: look again
      // before reporting, and rebuild instead if the file has moved on.
      await sleep(SETTLE_BEFORE_REPORT_MS);
      if (this.inputsMovedOn())
        return this.rebuild({ reason: `${reason}, read again`, config: false, staticFiles: false });
      const message = formatError(error);
      this.hub.send({ type: 'build-error', message });
      this.log(`error: ${message}\n(the last good version is still being served)`);
    }
  }

  /** What a rebuild's config changed: the static files read again, the server moved, the folders watched. */
  private async adoptConfig(next: BookConfig): Promise<void> {
    if (this.needsStatic) {
      assertSafeOutputDir(this.options.outDir, protectedFoldersOf(next));
      this.site.setStaticFiles(readStaticFiles(staticDirsOf(next), next.rootDir));
      this.needsStatic = false;
    }
    if (next.basePath !== this.config.basePath || localeDirsOf(next).join() !== localeDirsOf(this.config).join())
      await this.moveServer(next);
    if (next.contentDir !== this.config.contentDir || next.staticDir !== this.config.staticDir)
      void this.inputs.watch(next);
    this.config = next;
  }

  /**
   * The new pages out, the tabs told first: a tab showing the changed page gets it with the event
   * and needs nothing from the server; one that reloads is answered after the files are written
   * (this is all one turn of the event loop). Returns the changed files.
   */
  private publish(result: BuildResult): string[] {
    const { event, write } = this.site.replacePages(result, this.config.basePath);
    this.hub.send(event);
    return write();
  }

  /** A new base path or locale folders: open tabs are sent to the new address, then the server restarts there. */
  private async moveServer(next: BookConfig): Promise<void> {
    const from = this.config.basePath;
    this.hub.send({ type: 'moved', from, to: next.basePath });
    this.hub.close();
    await this.currentServer.close();
    this.hub = this.makeHub(next.basePath);
    this.currentServer = await this.serve(next, this.currentServer.port);
    if (from !== next.basePath)
      this.log(`basePath changed from ${from} to ${next.basePath}: now serving at ${this.currentServer.url}`);
  }

  /** True when a chapter or the config on disk is not what the last build read. */
  private inputsMovedOn(): boolean {
    this.inputs.forgetSeen();
    return this.builder.inputsChangedOnDisk();
  }

  /**
   * The search index, the build cache's new entries, and jieba's dictionary for later rebuilds,
   * once the first page is served and the server has been quiet for a moment. It runs in the
   * rebuild queue, so that a save meanwhile waits for it instead of racing it.
   */
  private buildSearchWhenQuiet(): void {
    const quietFor = performance.now() - this.lastRequestAt;
    if (quietFor < START_QUIET_MS) {
      this.searchTimer = setTimeout(() => this.buildSearchWhenQuiet(), START_QUIET_MS - quietFor);
      return;
    }
    this.queue.enqueue(() => {
      if (this.closed) return;
      const searchStarted = performance.now();
      try {
        this.site.writeSearch();
        this.builder.flushCache();
        this.builder.loadSegmenter();
        this.log(`search index ready (${Math.round(performance.now() - searchStarted)} ms)`);
      } catch (error) {
        this.log(`error: the search index: ${formatError(error)}`);
      }
    });
  }

  private contentFolderForLog(): string {
    return `${path.relative(process.cwd(), path.resolve(this.config.rootDir, this.config.contentDir)) || '.'}/`;
  }
}
