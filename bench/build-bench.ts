/**
 * Cold `pybook build` runs as child processes: wall time measured around the process, peak
 * memory (max RSS) from GNU time (`/usr/bin/time -v`), which this Linux machine has.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, round } from './stats.js';
import { writeSyntheticBook } from './synthetic-book.js';

export const root = path.resolve(import.meta.dirname, '..');
const GNU_TIME = '/usr/bin/time';

export interface BuildRun {
  wallMs: number;
  peakRssMb: number | null;
}

export interface BuildFigures {
  runs: number;
  medianMs: number;
  minMs: number;
  medianPeakRssMb: number | null;
  maxPeakRssMb: number | null;
  pages: number;
  outputMb: number;
  /** The machine's 1-minute load average before the first run and after the last. */
  loadAverage: [number, number];
}

function newestMtime(dir: string, keep: (file: string) => boolean): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && keep(file)) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

/** Compiles and bundles src/ (`npm run prepare`) when a source file is newer than the bundled CLI that bin/pybook.js loads. */
export function ensureCompiledCli(log: (line: string) => void): void {
  const cli = path.join(root, 'dist', 'bundle', 'cli.js');
  const sources = newestMtime(
    path.join(root, 'src'),
    (f) => !f.includes(`${path.sep}client${path.sep}`) && /\.(tsx?|json)$/.test(f),
  );
  if (existsSync(cli) && statSync(cli).mtimeMs >= sources) return;
  log('dist/ is older than src/: compiling and bundling with `npm run prepare`');
  const result = spawnSync('npm', ['run', 'prepare'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0)
    log(`npm run prepare failed (the bench uses the existing dist/):\n${result.stdout}${result.stderr}`);
}

/** Total size of the files under dir, in bytes. */
function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** One `node bin/pybook.js build` process; rejects with its output when it fails. */
async function buildOnce(
  configPath: string,
  outDir: string,
  extraArgs: string[],
): Promise<BuildRun & { output: string }> {
  rmSync(outDir, { recursive: true, force: true });
  const timeFile = path.join(os.tmpdir(), `pybook-bench-time-${process.pid}.txt`);
  const command = [
    process.execPath,
    path.join(root, 'bin', 'pybook.js'),
    'build',
    '--config',
    configPath,
    '--out-dir',
    outDir,
    ...extraArgs,
  ];
  const withTime = existsSync(GNU_TIME);
  const [file, ...args] = withTime ? [GNU_TIME, '-v', '-o', timeFile, ...command] : command;
  const started = performance.now();
  const child = spawn(file, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`pybook build --config ${configPath} failed (exit ${code}):\n${output.slice(-2000)}`);
  let peakRssMb: number | null = null;
  if (withTime) {
    const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(timeFile, 'utf8'));
    if (kb) peakRssMb = round(Number(kb[1]) / 1024, 1);
    rmSync(timeFile, { force: true });
  }
  return { wallMs, peakRssMb, output };
}

/**
 * `runs` builds of the book at configPath into outDir (left in place after the last run): cold
 * (`--no-cache`: everything compiled from scratch) or with the build cache of a previous build.
 */
export async function benchBuild(
  configPath: string,
  outDir: string,
  runs: number,
  mode: 'cold' | 'cached' = 'cold',
  threads?: number,
): Promise<BuildFigures> {
  const extraArgs = [...(mode === 'cold' ? ['--no-cache'] : []), ...(threads ? ['--threads', String(threads)] : [])];
  if (mode === 'cached') await buildOnce(configPath, outDir, []); // fills the cache
  const loadBefore = round(os.loadavg()[0], 2);
  const results: BuildRun[] = [];
  let output = '';
  for (let i = 0; i < runs; i += 1) {
    const run = await buildOnce(configPath, outDir, extraArgs);
    results.push(run);
    output = run.output;
  }
  const pages = Number(/Built (\d+) pages/.exec(output)?.[1] ?? Number.NaN);
  const rss = results.map((r) => r.peakRssMb).filter((v): v is number => v !== null);
  return {
    runs,
    medianMs: round(median(results.map((r) => r.wallMs))),
    minMs: round(Math.min(...results.map((r) => r.wallMs))),
    medianPeakRssMb: rss.length ? median(rss) : null,
    maxPeakRssMb: rss.length ? Math.max(...rss) : null,
    pages,
    outputMb: round(folderBytes(outDir) / 1e6, 1),
    loadAverage: [loadBefore, round(os.loadavg()[0], 2)],
  };
}

export interface ThreadsFigures {
  threads: number;
  pairs: number;
  singleMedianMs: number;
  pooledMedianMs: number;
  /** Median of the pairs' ratios, pool / one thread: below 1 the pool is faster. */
  ratio: number;
  /** What `pybook build` chooses by itself on this machine. */
  defaultThreads: number;
  loadAverage: [number, number];
}

/**
 * Cold builds on one thread and on a pool, alternated pair by pair so that a drift of the
 * machine's speed hits both: the figure behind the default (a pool from 4 cores up).
 */
export async function benchThreads(
  configPath: string,
  outDir: string,
  pairs: number,
  threads: number,
  defaultThreads: number,
): Promise<ThreadsFigures> {
  const loadBefore = round(os.loadavg()[0], 2);
  const single: number[] = [];
  const pooled: number[] = [];
  for (let i = 0; i < pairs; i += 1) {
    single.push((await buildOnce(configPath, outDir, ['--no-cache', '--threads', '1'])).wallMs);
    pooled.push((await buildOnce(configPath, outDir, ['--no-cache', '--threads', String(threads)])).wallMs);
  }
  return {
    threads,
    pairs,
    singleMedianMs: round(median(single)),
    pooledMedianMs: round(median(pooled)),
    ratio: round(median(pooled.map((ms, i) => ms / single[i])), 3),
    defaultThreads,
    loadAverage: [loadBefore, round(os.loadavg()[0], 2)],
  };
}

export interface SizePoint extends BuildFigures {
  chapters: number;
  msPerChapter: number;
}

export interface ScalingFigures {
  points: SizePoint[];
  /** The largest size again, with its categories configured collapsed: each page carries its own category's links only. */
  collapsedLargest?: SizePoint;
  /** Sizes left out because their estimated build time would overrun the bench's time budget. */
  skippedSizes: number[];
  /** ms per chapter at the largest size divided by that at the smallest; 1 means perfectly linear. */
  perChapterGrowth: number;
  linear: boolean;
  /** Output bytes per chapter at the largest size divided by that at the smallest. */
  outputPerChapterGrowth: number;
}

/** Within 25% of constant cost per chapter counts as linear (machine noise is about that large). */
const LINEAR_TOLERANCE = 1.25;

/**
 * Builds generated books of each size (one run each: the large ones take a while). The smallest
 * size always runs; a larger one is skipped when, extrapolating from the last (cost grows faster
 * than linearly, so with exponent 1.5), it would end after `deadline` (a Date.now() value).
 */
export async function benchScaling(
  sizes: number[],
  runs: number,
  deadline: number,
  log: (line: string) => void,
): Promise<ScalingFigures> {
  const points: SizePoint[] = [];
  const skippedSizes: number[] = [];
  for (const chapters of [...sizes].sort((a, b) => a - b)) {
    const previous = points[points.length - 1];
    if (previous && Date.now() + previous.medianMs * runs * (chapters / previous.chapters) ** 1.5 > deadline) {
      log(`skipping the ${chapters}-chapter book: it would overrun the time budget (BENCH_BUDGET_S)`);
      skippedSizes.push(chapters);
      continue;
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), `pybook-bench-book-${chapters}-`));
    try {
      const book = writeSyntheticBook(dir, chapters, path.join(root, 'book.config.json'));
      log(`building a generated book of ${chapters} chapters (en + zh-cn)…`);
      const figures = await benchBuild(book.configPath, path.join(dir, 'site'), runs);
      points.push({ chapters, ...figures, msPerChapter: round(figures.medianMs / chapters, 1) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const first = points[0];
  const last = points[points.length - 1];
  let collapsedLargest: SizePoint | undefined;
  if (points.length > 1) {
    const dir = mkdtempSync(path.join(os.tmpdir(), `pybook-bench-book-${last.chapters}-collapsed-`));
    try {
      const book = writeSyntheticBook(dir, last.chapters, path.join(root, 'book.config.json'), true);
      log(`building the ${last.chapters}-chapter book again with its categories collapsed…`);
      const figures = await benchBuild(book.configPath, path.join(dir, 'site'), runs);
      collapsedLargest = {
        chapters: last.chapters,
        ...figures,
        msPerChapter: round(figures.medianMs / last.chapters, 1),
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const perChapterGrowth = round(last.msPerChapter / first.msPerChapter, 2);
  return {
    points,
    collapsedLargest,
    skippedSizes,
    perChapterGrowth,
    linear: perChapterGrowth <= LINEAR_TOLERANCE,
    outputPerChapterGrowth: round(last.outputMb / last.chapters / (first.outputMb / first.chapters), 2),
  };
}
