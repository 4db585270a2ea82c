/**
 * Watch mode as an author meets it, on a temporary copy of the real book, through the real CLI
 * (`node bin/pybook.js watch`, compiled, as authors run it) and headless Chromium:
 * - start: from launching `pybook watch` until the chapter is painted in a tab opened as soon as
 *   the terminal prints the URL, with the build cache on disk (warm) and without it (cold);
 * - save: from writing a chapter file until the open tab has painted the new text (file event,
 *   incremental rebuild, output sync, live-reload event, update of the page, paint).
 * Also profiles one incremental rebuild stage by stage.
 *
 * "Painted" is timed in the page without forcing a layout: a MutationObserver installed before
 * the page's own scripts notices the text arriving (textContent, never innerText or geometry),
 * then the time is taken once the next frame has been produced (requestAnimationFrame, then a
 * message: it runs after that frame's style, layout and paint). Node's and Chromium's clocks
 * are both read as milliseconds since the epoch; their offset is measured and corrected.
 *
 * Run alone with `node --import tsx bench/watch-bench.ts` (BENCH_EDITS=20; BENCH_WATCH=start or save for
 * one half).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Builder } from '../src/generator/build.js';
import { liveReloadCode, liveReloadScript } from '../src/watch/live-reload.js';
import { syncOutput } from '../src/watch/sync-output.js';
import { launchChromium } from '../test/helpers/browser.js';
import { benchBuild, ensureCompiledCli, root } from './build-bench.js';
import { median, percentile, round, table } from './stats.js';

export const WATCH_CHAPTER = 'hello-world';
/** The targets (#15). */
export const WATCH_START_WARM_TARGET_MS = 1500;
export const WATCH_START_COLD_MARGIN_MS = 500;
export const SAVE_P50_TARGET_MS = 100;
export const SAVE_P95_TARGET_MS = 150;

export interface WatchFigures {
  edits: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** The server-side share: rebuild + sync as logged by watch mode ("rebuilt … in N ms"). */
  rebuildP50Ms: number;
  /** Write until the page received the reload event (file event, rebuild, event). */
  eventP50Ms: number;
  /** Reload event until the new text was painted (the browser's share). */
  eventToPaintP50Ms: number;
  eventToPaintP95Ms: number;
  /** Output files each rebuild rewrote (median): a one-chapter edit ideally rewrites a handful. */
  filesChangedP50: number;
  /** How the tab showed the edits: in place (no page load) or by reloading. */
  reloads: number;
  samplesMs: number[];
  /** Load average (1 min) when the edits started and ended. */
  loadAverage: [number, number];
}

export interface WatchStartRun {
  /** Launch until the terminal says it is ready (prints the URL). */
  readyMs: number;
  /** Launch until the chapter is painted in a tab opened at that moment. */
  paintedMs: number;
}

export interface WatchStartFigures {
  warm: WatchStartRun[];
  cold: WatchStartRun[];
  warmPaintedMedianMs: number;
  coldPaintedMedianMs: number;
  /** `pybook build --no-cache` of the same copy (median; one just before each cold start), for the cold target (cold build + 0.5 s). */
  coldBuildMs: number;
  warmWithinTarget: boolean;
  coldWithinTarget: boolean;
  /** Load average (1 min) at the first and the last start. */
  loadAverage: [number, number];
}

export interface RebuildProfile {
  /** Median ms per stage of an incremental rebuild after a one-paragraph edit of one chapter. */
  stagesMs: Record<string, number>;
  syncOutputMs: number;
  totalMs: number;
}

const load1 = () => round(os.loadavg()[0], 2);
const now = () => performance.timeOrigin + performance.now();

/** A scratch copy of the real book (chapters + config), so edits never touch book/. */
export function copyRealBook(): { dir: string; configPath: string; chapterFile: string; cacheDir: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pybook-bench-watch-'));
  cpSync(path.join(root, 'book'), path.join(dir, 'book'), { recursive: true });
  cpSync(path.join(root, 'book.config.json'), path.join(dir, 'book.config.json'));
  // Outside a project with node_modules/, the build cache lives in .pybook-cache (see DiskCache.forBook).
  return {
    dir,
    configPath: path.join(dir, 'book.config.json'),
    chapterFile: path.join(dir, 'book', 'en', `${WATCH_CHAPTER}.mdx`),
    cacheDir: path.join(dir, '.pybook-cache'),
  };
}

/** A `pybook watch` child process and what its terminal output says. */
interface WatchProcess {
  child: ChildProcess;
  startedAt: number;
  /** The URL, once it is ready; `readyAt` is when the line arrived. */
  ready: Promise<{ url: string; readyAt: number }>;
  /** Resolves once the search index of the start is built (the terminal says so). */
  searchReady: Promise<void>;
  /** Rebuild lines: ms and files changed, in order. */
  rebuilds: Array<{ ms: number; files: number }>;
  onRebuilt: Array<() => void>;
  stop(): Promise<void>;
}

function startWatchProcess(book: { dir: string; configPath: string }): WatchProcess {
  const startedAt = now();
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'bin', 'pybook.js'),
      'watch',
      '-c',
      book.configPath,
      '-o',
      path.join(book.dir, 'site'),
      '--port',
      '0',
    ],
    {
      cwd: book.dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const lines = createInterface({ input: child.stderr });
  const rebuilds: WatchProcess['rebuilds'] = [];
  const onRebuilt: WatchProcess['onRebuilt'] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let searchDone = () => {};
  const searchReady = new Promise<void>((resolve) => {
    searchDone = resolve;
  });
  const ready = new Promise<{ url: string; readyAt: number }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`pybook watch exited (${code})`)));
    lines.on('line', (line) => {
      const url = /serving at (\S+)/.exec(line);
      if (url) resolve({ url: url[1], readyAt: now() });
      if (/^search index (ready|built)/i.test(line)) searchDone();
      const match = /^rebuilt .* in (\d+) ms, (\d+) files? changed/.exec(line);
      if (match) {
        rebuilds.push({ ms: Number(match[1]), files: Number(match[2]) });
        onRebuilt.shift()?.();
      } else if (line.startsWith('error')) process.stderr.write(`watch: ${line}\n`);
    });
  });
  return {
    child,
    startedAt,
    ready,
    searchReady,
    rebuilds,
    onRebuilt,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

/** Reports `[id, epoch ms]` when a text is painted; see the file comment. Installed before every document of the page. */
const PAINT_PROBE = `(() => {
  // When each live-reload event arrives (its listener goes first), to split server and browser time.
  const Source = window.EventSource;
  if (Source) window.EventSource = class extends Source {
    constructor(...args) { super(...args); this.addEventListener('reload', () => window.__benchEvent(performance.timeOrigin + performance.now())); }
  };
  const seen = new Set();
  const painted = (id) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => window.__benchPainted(id, performance.timeOrigin + performance.now());
    channel.port2.postMessage(0);
  });
  const look = (node) => {
    if (node.nodeName === 'H1' && !seen.has('h1')) { seen.add('h1'); painted('h1'); }
    const text = node.textContent;
    if (!text || !text.includes('pybook bench marker ')) return;
    for (const match of text.matchAll(/pybook bench marker (\\w+)/g)) if (!seen.has(match[1])) { seen.add(match[1]); painted(match[1]); }
  };
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'characterData') look(record.target);
      else for (const node of record.addedNodes) look(node);
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();`;

interface PaintProbe {
  /** Epoch ms (Node's clock) at which the text with this id (or 'h1', the first heading) was painted. */
  painted(id: string, timeoutMs?: number): Promise<number>;
  /** Epoch ms (Node's clock) of the first live-reload event the page received after `since`. */
  eventAfter(since: number): number | undefined;
  /** Measures Chromium's clock against Node's; call once a document is loaded. */
  calibrate(): Promise<void>;
}

async function installPaintProbe(page: Page): Promise<PaintProbe> {
  const times = new Map<string, number>();
  const waiting = new Map<string, (t: number) => void>();
  let offset = 0; // Chromium's epoch clock minus Node's
  await page.exposeFunction('__benchPainted', (id: string, at: number) => {
    if (times.has(id)) return; // a reload paints earlier markers again
    times.set(id, at);
    waiting.get(id)?.(at);
  });
  const events: number[] = [];
  await page.exposeFunction('__benchEvent', (at: number) => {
    events.push(at);
  });
  await page.addInitScript(PAINT_PROBE);
  return {
    eventAfter(since) {
      const at = events.map((t) => t - offset).find((t) => t >= since);
      return at;
    },
    painted(id, timeoutMs = 20_000) {
      const known = times.get(id);
      const at =
        known !== undefined
          ? Promise.resolve(known)
          : new Promise<number>((resolve, reject) => {
              const timer = setTimeout(
                () => reject(new Error(`"${id}" was not painted within ${timeoutMs} ms`)),
                timeoutMs,
              );
              waiting.set(id, (t) => {
                clearTimeout(timer);
                resolve(t);
              });
            });
      return at.then((t) => t - offset);
    },
    async calibrate() {
      // The round trip with the smallest delay bounds the offset best.
      let best = { rtt: Infinity, offset: 0 };
      for (let i = 0; i < 15; i += 1) {
        const before = now();
        const browserNow = await page.evaluate(() => performance.timeOrigin + performance.now());
        const after = now();
        if (after - before < best.rtt) best = { rtt: after - before, offset: browserNow - (before + after) / 2 };
      }
      offset = best.offset;
    },
  };
}

/** One start of `pybook watch`: until the chapter is painted in a fresh tab opened on the URL it prints. */
async function timeOneStart(
  browser: Browser,
  book: { dir: string; configPath: string },
): Promise<WatchStartRun & { watch: WatchProcess; page: Page; context: BrowserContext; probe: PaintProbe }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const probe = await installPaintProbe(page);
  const watch = startWatchProcess(book);
  try {
    const { url, readyAt } = await watch.ready;
    await page.goto(`${url}${WATCH_CHAPTER}/`, { waitUntil: 'commit' });
    await page.waitForLoadState('load');
    await probe.calibrate();
    const painted = await probe.painted('h1');
    return {
      readyMs: round(readyAt - watch.startedAt),
      paintedMs: round(painted - watch.startedAt),
      watch,
      page,
      context,
      probe,
    };
  } catch (error) {
    await watch.stop();
    await context.close();
    throw error;
  }
}

/**
 * Starts watch mode `coldRuns` times without a build cache (each after a `pybook build --no-cache`
 * of the same copy, to compare with), then `warmRuns` times with the cache the previous start left.
 */
export async function benchWatchStart(warmRuns = 3, coldRuns = 3): Promise<WatchStartFigures> {
  ensureCompiledCli(() => {});
  const book = copyRealBook();
  const browser = await launchChromium();
  const loadAverage = load1();
  const cold: WatchStartRun[] = [];
  const warm: WatchStartRun[] = [];
  const coldBuilds: number[] = [];
  try {
    for (let i = 0; i < coldRuns + warmRuns; i += 1) {
      const isCold = i < coldRuns;
      if (isCold) {
        // A cold build just before each cold start, so that both meet the same load.
        coldBuilds.push((await benchBuild(book.configPath, path.join(book.dir, 'build-out'), 1)).medianMs);
        rmSync(book.cacheDir, { recursive: true, force: true });
      }
      const run = await timeOneStart(browser, book);
      // Let the start finish (search index, cache writes) before the next one, as an author's
      // session would; the warm runs then find a complete cache.
      await run.watch.searchReady;
      await run.watch.stop();
      await run.context.close();
      (isCold ? cold : warm).push({ readyMs: run.readyMs, paintedMs: run.paintedMs });
    }
    const warmPaintedMedianMs = median(warm.map((r) => r.paintedMs));
    const coldPaintedMedianMs = median(cold.map((r) => r.paintedMs));
    const coldBuildMs = round(median(coldBuilds));
    return {
      warm,
      cold,
      warmPaintedMedianMs,
      coldPaintedMedianMs,
      coldBuildMs,
      warmWithinTarget: warmPaintedMedianMs <= WATCH_START_WARM_TARGET_MS,
      coldWithinTarget: coldPaintedMedianMs <= coldBuildMs + WATCH_START_COLD_MARGIN_MS,
      loadAverage: [loadAverage, load1()],
    };
  } finally {
    await browser.close();
    rmSync(book.dir, { recursive: true, force: true });
  }
}

/**
 * Starts watch mode on a copy of the book, opens the chapter in Chromium, then appends a line to
 * the chapter `edits` times and times each write until the tab has painted the new line.
 */
export async function benchWatchLatency(edits: number): Promise<WatchFigures> {
  ensureCompiledCli(() => {});
  const book = copyRealBook();
  const browser = await launchChromium();
  const samples: number[] = [];
  const toEvent: number[] = [];
  const eventToPaint: number[] = [];
  let reloads = 0;
  let loadStart = 0;
  let watch: WatchProcess | undefined;
  try {
    const run = await timeOneStart(browser, book);
    watch = run.watch;
    const { page, probe } = run;
    await watch.searchReady;
    page.on('load', () => {
      reloads += 1;
    });
    loadStart = load1();
    for (let i = 0; i < edits; i += 1) {
      const id = `${i}x${Math.random().toString(36).slice(2, 10)}`;
      const logged = new Promise<void>((resolve) => watch!.onRebuilt.push(resolve));
      const started = now();
      appendFileSync(book.chapterFile, `\n\npybook bench marker ${id}\n`);
      const painted = await probe.painted(id);
      samples.push(painted - started);
      const event = probe.eventAfter(started);
      if (event !== undefined && event <= painted) {
        toEvent.push(event - started);
        eventToPaint.push(painted - event);
      }
      await logged;
      // An author does not save several times a second: let the deferred search index finish.
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await browser.close();
    await watch?.stop();
    rmSync(book.dir, { recursive: true, force: true });
  }
  const rebuilds = watch.rebuilds;
  return {
    edits,
    p50Ms: round(median(samples)),
    p95Ms: round(percentile(samples, 95)),
    maxMs: round(Math.max(...samples)),
    rebuildP50Ms: round(median(rebuilds.map((r) => r.ms))),
    eventP50Ms: round(median(toEvent)),
    eventToPaintP50Ms: round(median(eventToPaint)),
    eventToPaintP95Ms: round(percentile(eventToPaint, 95)),
    filesChangedP50: median(rebuilds.map((r) => r.files)),
    reloads,
    samplesMs: samples.map((s) => round(s)),
    loadAverage: [loadStart, load1()],
  };
}

/** Times each stage of watch mode's rebuild (same Builder options) after editing one chapter. */
export async function profileRebuild(repeats: number): Promise<RebuildProfile> {
  const book = copyRealBook();
  const outDir = path.join(book.dir, 'site');
  const config = JSON.parse(readFileSync(book.configPath, 'utf8')) as { basePath: string };
  const stageTimes: Record<string, number[]> = {};
  let stage = '';
  let stageStarted = 0;
  const endStage = () => {
    if (stage) (stageTimes[stage] ??= []).push(performance.now() - stageStarted);
  };
  const builder = new Builder({
    configPath: book.configPath,
    bodyScript: liveReloadScript(await liveReloadCode(), config.basePath),
    mode: 'watch',
    diskCache: true,
    onProgress: (step) => {
      endStage();
      stage = step;
      stageStarted = performance.now();
    },
  });
  try {
    let files = (await builder.build()).files;
    // syncOutput updates a folder that exists (watch mode's start makes it): the first file
    // written at the top (about-the-book.md, the chapter's Markdown) found no folder.
    mkdirSync(outDir, { recursive: true });
    syncOutput(outDir, new Map(), files);
    const syncTimes: number[] = [];
    const totals: number[] = [];
    for (const times of Object.values(stageTimes)) times.length = 0;
    for (let i = 0; i < repeats; i += 1) {
      appendFileSync(book.chapterFile, `\n\nprofile edit ${i}\n`);
      const started = performance.now();
      stage = '';
      const result = await builder.build();
      endStage();
      stage = '';
      const syncStarted = performance.now();
      syncOutput(outDir, files, result.files);
      files = result.files;
      syncTimes.push(performance.now() - syncStarted);
      totals.push(performance.now() - started);
      builder.flushCache(); // as watch mode does, once the edit is shown
    }
    const stagesMs: Record<string, number> = {};
    for (const [name, times] of Object.entries(stageTimes)) if (times.length) stagesMs[name] = round(median(times));
    return { stagesMs, syncOutputMs: round(median(syncTimes)), totalMs: round(median(totals)) };
  } finally {
    rmSync(book.dir, { recursive: true, force: true });
  }
}

/** Readable tables of the figures (bench/run.ts prints the same). */
export function watchTables(start: WatchStartFigures | undefined, save: WatchFigures | undefined): string {
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const out: string[] = [];
  if (start) {
    out.push(
      `\n## Watch mode start: launch until ${WATCH_CHAPTER} is painted in a tab opened on the printed URL (load average ${start.loadAverage.join(' → ')})`,
    );
    out.push(
      table(
        ['build cache', 'runs', 'ready ms (each)', 'painted ms (each)', 'painted median ms', 'target'],
        [
          [
            'on disk',
            String(start.warm.length),
            start.warm.map((r) => r.readyMs).join(' '),
            start.warm.map((r) => r.paintedMs).join(' '),
            String(start.warmPaintedMedianMs),
            `≤ ${WATCH_START_WARM_TARGET_MS} ms: ${verdict(start.warmWithinTarget)}`,
          ],
          [
            'none',
            String(start.cold.length),
            start.cold.map((r) => r.readyMs).join(' '),
            start.cold.map((r) => r.paintedMs).join(' '),
            String(start.coldPaintedMedianMs),
            `≤ cold build ${start.coldBuildMs} + ${WATCH_START_COLD_MARGIN_MS} ms: ${verdict(start.coldWithinTarget)}`,
          ],
        ],
      ),
    );
  }
  if (save) {
    out.push(
      `\n## Watch mode save: write of ${WATCH_CHAPTER}.mdx until Chromium has painted it (${save.edits} edits, load average ${save.loadAverage.join(' → ')})`,
    );
    out.push(
      table(
        [
          'p50 ms',
          'p95 ms',
          'max ms',
          'rebuild+sync p50 ms',
          'write→event p50 ms',
          'event→paint p50/p95 ms',
          'files rewritten p50',
          'page reloads',
          `target p50/p95 ≤ ${SAVE_P50_TARGET_MS}/${SAVE_P95_TARGET_MS} ms`,
        ],
        [
          [
            String(save.p50Ms),
            String(save.p95Ms),
            String(save.maxMs),
            String(save.rebuildP50Ms),
            String(save.eventP50Ms),
            `${save.eventToPaintP50Ms} / ${save.eventToPaintP95Ms}`,
            String(save.filesChangedP50),
            String(save.reloads),
            verdict(save.p50Ms <= SAVE_P50_TARGET_MS && save.p95Ms <= SAVE_P95_TARGET_MS),
          ],
        ],
      ),
    );
    out.push(`samples ms: ${save.samplesMs.join(' ')}`);
  }
  return out.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const edits = Number(process.env.BENCH_EDITS ?? 20);
  const only = process.env.BENCH_WATCH; // 'start' or 'save': one half only
  const start = only === 'save' ? undefined : await benchWatchStart();
  const save = only === 'start' ? undefined : await benchWatchLatency(edits);
  console.log(watchTables(start, save));
  console.log(JSON.stringify({ start, save }));
}
