/**
 * Where a cold Python run's time goes, step by step, from a browser trace (CDP Tracing, every
 * process: the page, the sandbox's iframe and its worker) on a built site:
 * `node --import tsx bench/runner-trace.ts [--tries n] <site> [<site>…]` (TRACE_OUT=path keeps the traces).
 *
 * The steps are the performance marks the runner leaves (client/runner/timeline-marks.ts,
 * "pybook:…"), read against the click; the trace's WebAssembly compile events fill in what
 * happens between them. Each try is a new browser context (an empty HTTP cache) and a cold click
 * on Run (no hover first).
 */
import { writeFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { startStaticServer } from '../src/server/static-server.js';
import { BASE_PATH, launchChromium, newContext } from '../test/helpers/browser.js';
import { median } from './stats.js';
import { traced, type TraceEvent } from './trace.js';

const CATEGORIES = (
  process.env.TRACE_CATEGORIES ??
  ['blink.user_timing', 'v8.wasm', 'disabled-by-default-v8.wasm.detailed', 'devtools.timeline', 'v8'].join(',')
).split(',');

const runSelector = '.markdown .code-block:not([data-exercise="starter"]):has(.code-run[data-run-lang="python"])';

async function coldRun(page: Page): Promise<void> {
  await page.evaluate((selector) => {
    performance.mark('pybook:click');
    document
      .querySelector(`${selector} button[data-code-action=run]`)!
      .dispatchEvent(new MouseEvent('click', { bubbles: true }));
  }, runSelector);
  await page
    .locator(`${runSelector} .code-run-output[data-run="1"]:not([data-verdict="pending"])`)
    .first()
    .waitFor({ timeout: 300_000 });
}

/**
 * The steps' times from the click (ms): the first sandbox's marks (a spare's come later and
 * repeat the names), and up to the first output, the WebAssembly compiling done by the sandbox's
 * worker (lazy compiling of functions as they are first called) and by background threads
 * (optimizing the hot ones), which share the machine's cores with everything else.
 */
function steps(events: TraceEvent[]): Record<string, number> {
  const click = events.find((e) => e.name === 'pybook:click');
  if (!click) throw new Error('no click mark in the trace');
  const at = (e: TraceEvent) => (e.ts - click.ts) / 1000;
  const out: Record<string, number> = {};
  for (const e of events.filter((e) => e.name.startsWith('pybook:') && e.ph !== 'e').sort((a, b) => a.ts - b.ts)) {
    const name = e.name.slice('pybook:'.length);
    if (!(name in out)) out[name] = at(e);
  }
  const end = out['first output'] ?? Infinity;
  const sum = (name: string) =>
    events
      .filter((e) => e.ph === 'X' && e.name === name && at(e) >= 0 && at(e) < end)
      .reduce((total, e) => total + (e.dur ?? 0) / 1000, 0);
  out['(busy) wasm lazy compile, in the worker'] = sum('wasm.CompileLazy');
  out['(busy) wasm top-tier compile, background threads'] = sum('wasm.TopTierCompilation');
  return out;
}

/** `[--tries n] <site> [<site>…]`: with several sites, the tries alternate between them, so the machine's load falls on each alike. */
function parseArgs(args: string[]): { sites: string[]; tries: number } {
  const at = args.indexOf('--tries');
  const tries = at >= 0 ? Number(args[at + 1]) : 3;
  const sites = args.filter((_, i) => i !== at && i !== at + 1);
  if (!sites.length || !(tries > 0))
    throw new Error('usage: bench/runner-trace.ts [--tries n] <site folder> [<site folder>…]');
  return { sites, tries };
}

async function main(): Promise<void> {
  const { sites, tries } = parseArgs(process.argv.slice(2));
  const browser = await launchChromium();
  const figures = new Map<string, Record<string, number[]>>(sites.map((site) => [site, {}]));
  try {
    for (let i = 0; i < tries; i++) {
      for (const siteDir of sites) {
        const server = await startStaticServer({
          dir: siteDir,
          basePath: BASE_PATH,
          port: 0,
          localeDirs: ['zh-cn'],
          log: () => {},
        });
        const context = await newContext(browser);
        try {
          const page = await context.newPage();
          await page.goto(`http://127.0.0.1:${server.port}${BASE_PATH}dictionary/`);
          await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
          await page.waitForLoadState('networkidle');
          const events = await traced(browser, CATEGORIES, () => coldRun(page));
          if (process.env.TRACE_OUT)
            await writeFile(
              `${process.env.TRACE_OUT}.${sites.indexOf(siteDir)}.${i}.json`,
              JSON.stringify({ traceEvents: events }),
            );
          const found = steps(events);
          console.log(`${siteDir}, try ${i + 1}:`);
          for (const [name, ms] of Object.entries(found)) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
          const mine = figures.get(siteDir)!;
          for (const [name, ms] of Object.entries(found)) (mine[name] ??= []).push(Math.round(ms));
        } finally {
          await context.close();
          await server.close();
        }
      }
    }
  } finally {
    await browser.close();
  }
  for (const [site, mine] of figures) {
    console.log(`\n${site}: medians (ms from the click)`);
    for (const [name, values] of Object.entries(mine))
      console.log(`  ${String(median(values)).padStart(6)}  ${name} [${values.join(', ')}]`);
  }
}

await main();
