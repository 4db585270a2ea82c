import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM } from '../test/helpers/browser.js';
import { median } from './stats.js';
import { pageCommit, pageMainThread, type TraceEvent } from './trace.js';

export interface LighthouseResult {
  url: string;
  scores: Record<string, number>;
  /** The performance metrics behind the score, in ms (CLS unitless). */
  metrics: Record<MetricName, number>;
  /** Audits that kept a category below 100, with their titles. */
  failing: Array<{ category: string; audit: string; title: string; score: number | null }>;
  /**
   * How long after the page's first paint (its main thread's first Paint) the browser reported
   * first-contentful-paint, in ms. Headless Chromium sometimes holds a frame back by a second or
   * two (Lighthouse issue #17148): Lantern then counts everything the page loaded before that late
   * FCP as render-blocking, and the run's FCP, TBT and SI move with it. Here it holds pages that
   * wait for a render-blocking stylesheet (3-4 runs in 4); the same chapter with its stylesheet
   * inlined, or with none, was never held (0 in 4 each), but scored lower: with an early FCP its
   * start-up scripts count as blocking time.
   */
  paintHeldMs: number;
}

/** A first frame reported this much later than it was painted was held back by the browser. */
export const HELD_PAINT_MS = 500;

/** The flags every Chromium of this repository starts with (test/helpers/browser.ts). */
const CHROME_FLAGS = CHROMIUM.args;

/** The metrics the mobile performance score is made of, by their audit ids. */
const METRICS = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  si: 'speed-index',
  cls: 'cumulative-layout-shift',
} as const;
type MetricName = keyof typeof METRICS;

/**
 * Lighthouse (mobile, its default form factor and simulated throttling) on one URL with Debian's
 * Chromium, in a fresh browser.
 */
export async function runLighthouse(url: string): Promise<LighthouseResult> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { categories, audits } = result.lhr;
    const scores: Record<string, number> = {};
    const failing: LighthouseResult['failing'] = [];
    for (const [id, category] of Object.entries(categories)) {
      scores[id] = Math.round((category.score ?? 0) * 100);
      for (const ref of category.auditRefs) {
        const audit = audits[ref.id];
        if (ref.weight > 0 && audit.score !== null && audit.score < 1)
          failing.push({ category: id, audit: ref.id, title: audit.title, score: audit.score });
      }
    }
    const metrics = Object.fromEntries(
      Object.entries(METRICS).map(([name, id]) => [name, audits[id]?.numericValue ?? NaN]),
    ) as Record<MetricName, number>;
    return { url, scores, metrics, failing, paintHeldMs: paintHeld(result.artifacts.Trace.traceEvents, url) };
  } finally {
    chrome.kill();
  }
}

/** The page's first-contentful-paint event minus the end of its first Paint (see `paintHeldMs`). */
function paintHeld(events: readonly TraceEvent[], url: string): number {
  const commit = pageCommit(events, url);
  if (!commit) return NaN;
  const paint = pageMainThread(events, url)
    .filter((e) => e.name === 'Paint')
    .sort((a, b) => a.ts - b.ts)[0];
  const fcp = events.find((e) => e.pid === commit.pid && e.ts >= commit.ts && e.name === 'firstContentfulPaint');
  return paint && fcp ? Math.round((fcp.ts - (paint.ts + (paint.dur ?? 0))) / 1000) : NaN;
}

export interface LighthouseSeries {
  url: string;
  runs: number;
  /** Median score of each category. */
  scores: Record<string, number>;
  performanceRange: [number, number];
  /** Median of each metric. */
  metrics: Record<MetricName, number>;
  /** Audits below 1 in any run, with how many runs. */
  failing: Array<{ category: string; audit: string; title: string; runs: number }>;
  /** Runs whose first frame the browser held back (`paintHeldMs` ≥ HELD_PAINT_MS). */
  heldRuns: number;
}

/**
 * `runs` Lighthouse runs of each URL, the URLs taken in turn so that a change in the machine's
 * load falls on all of them alike. One run's performance score moves by several points on a
 * shared machine: the medians are the figures to compare.
 */
export async function runLighthouseSeries(urls: string[], runs: number): Promise<LighthouseSeries[]> {
  const results = urls.map(() => [] as LighthouseResult[]);
  for (let run = 0; run < runs; run++) {
    for (const [i, url] of urls.entries()) results[i].push(await runLighthouse(url));
  }
  return results.map((series, i) => summarise(urls[i], series));
}

function summarise(url: string, series: LighthouseResult[]): LighthouseSeries {
  const categories = Object.keys(series[0].scores);
  const performance = series.map((r) => r.scores.performance ?? 0);
  const failing = new Map<string, LighthouseSeries['failing'][number]>();
  for (const result of series) {
    for (const f of result.failing) {
      const key = `${f.category} ${f.audit}`;
      const seen = failing.get(key) ?? { category: f.category, audit: f.audit, title: f.title, runs: 0 };
      seen.runs += 1;
      failing.set(key, seen);
    }
  }
  return {
    url,
    runs: series.length,
    scores: Object.fromEntries(categories.map((c) => [c, median(series.map((r) => r.scores[c] ?? 0))])),
    performanceRange: [Math.min(...performance), Math.max(...performance)],
    metrics: Object.fromEntries(
      Object.keys(METRICS).map((m) => [m, median(series.map((r) => r.metrics[m as MetricName]))]),
    ) as Record<MetricName, number>,
    failing: [...failing.values()],
    heldRuns: series.filter((r) => r.paintHeldMs >= HELD_PAINT_MS).length,
  };
}
