/**
 * Watch-mode latency: from writing a chapter file to the open browser showing the new text
 * (file event, incremental rebuild, output sync, live-reload event, page reload, paint), on a
 * temporary copy of the real book. Also profiles one incremental rebuild stage by stage.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Builder } from '../src/generator/build.js';
import { liveReloadScript } from '../src/watch/live-reload.js';
import { syncOutput } from '../src/watch/sync-output.js';
import { launchChromium } from '../test/helpers/browser.js';
import { root } from './build-bench.js';
import { median, percentile, round } from './stats.js';

export const WATCH_CHAPTER = 'hello-world';

export interface WatchFigures {
  edits: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** The server-side share: rebuild + sync as logged by watch mode ("rebuilt … in N ms"). */
  rebuildP50Ms: number;
  /** Output files each rebuild rewrote (median): a one-chapter edit ideally rewrites a handful. */
  filesChangedP50: number;
  samplesMs: number[];
}

export interface RebuildProfile {
  /** Median ms per stage of an incremental rebuild after a one-paragraph edit of one chapter. */
  stagesMs: Record<string, number>;
  syncOutputMs: number;
  totalMs: number;
}

/** A scratch copy of the real book (chapters + config), so edits never touch book/. */
export function copyRealBook(): { dir: string; configPath: string; chapterFile: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pybook-bench-watch-'));
  cpSync(path.join(root, 'book'), path.join(dir, 'book'), { recursive: true });
  cpSync(path.join(root, 'book.config.json'), path.join(dir, 'book.config.json'));
  return { dir, configPath: path.join(dir, 'book.config.json'), chapterFile: path.join(dir, 'book', 'en', `${WATCH_CHAPTER}.mdx`) };
}

/**
 * Runs the real CLI (`node bin/pybook.js watch`, compiled and in production mode as authors run
 * it) on a copy of the book, appends a line to a chapter 20 times with a Chromium tab open on it,
 * and times each write until the tab shows the new line.
 */
export async function benchWatchLatency(edits: number): Promise<WatchFigures> {
  const book = copyRealBook();
  const rebuildTimes: number[] = [];
  const filesChanged: number[] = [];
  const child = spawn(process.execPath, [path.join(root, 'bin', 'pybook.js'), 'watch', '-c', book.configPath, '-o', path.join(book.dir, 'site'), '--port', '0'], {
    cwd: book.dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines = createInterface({ input: child.stderr! });
  const rebuilt: Array<() => void> = [];
  const serving = new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`pybook watch exited (${code})`)));
    lines.on('line', (line) => {
      const url = /serving at (\S+)/.exec(line);
      if (url) resolve(url[1]);
      const match = /^rebuilt .* in (\d+) ms, (\d+) files? changed/.exec(line);
      if (match) {
        rebuildTimes.push(Number(match[1]));
        filesChanged.push(Number(match[2]));
        rebuilt.shift()?.();
      } else if (line.startsWith('error')) process.stderr.write(`watch: ${line}\n`);
    });
  });
  const browser = await launchChromium();
  const samples: number[] = [];
  try {
    const url = await serving;
    const page = await browser.newPage();
    await page.goto(`${url}${WATCH_CHAPTER}/`, { waitUntil: 'load' });
    for (let i = 0; i < edits; i += 1) {
      const marker = `pybook bench marker ${i} ${Math.random().toString(36).slice(2)}`;
      const logged = new Promise<void>((resolve) => rebuilt.push(resolve));
      const started = performance.now();
      appendFileSync(book.chapterFile, `\n\n${marker}\n`);
      // Survives a reload: Playwright re-evaluates the predicate in the new document.
      await page.waitForFunction((text) => document.body?.innerText.includes(text) ?? false, marker, { polling: 5, timeout: 20_000 });
      samples.push(performance.now() - started);
      await logged;
      // An author does not save several times a second: let the deferred search index finish.
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await browser.close();
    child.kill('SIGINT');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(book.dir, { recursive: true, force: true });
  }
  return {
    edits,
    p50Ms: round(median(samples)),
    p95Ms: round(percentile(samples, 95)),
    maxMs: round(Math.max(...samples)),
    rebuildP50Ms: round(median(rebuildTimes)),
    filesChangedP50: median(filesChanged),
    samplesMs: samples.map((s) => round(s)),
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
    bodyExtra: liveReloadScript(config.basePath),
    dev: true,
    onProgress: (step) => { endStage(); stage = step; stageStarted = performance.now(); },
  });
  try {
    let files = (await builder.build()).files;
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
    }
    const stagesMs: Record<string, number> = {};
    for (const [name, times] of Object.entries(stageTimes)) if (times.length) stagesMs[name] = round(median(times));
    return { stagesMs, syncOutputMs: round(median(syncTimes)), totalMs: round(median(totals)) };
  } finally {
    rmSync(book.dir, { recursive: true, force: true });
  }
}
