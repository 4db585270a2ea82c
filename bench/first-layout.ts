/**
 * What a page's first rendering costs in a fresh browser, as Lighthouse's runs pay it: the style,
 * layout and module-evaluation time of a load, from a trace, each load in a browser of its own (a phone-sized
 * window). Lighthouse's performance score moves by several points between runs here; these
 * medians move by much less, so a change to the stylesheet or the markup can be compared with them.
 *
 * `node --import tsx bench/first-layout.ts [--loads n] <site> [<site>…] [-- route…]` (default
 * routes: the chapter in both languages). Given several sites, it alternates between them.
 */
import { BASE_PATH, launchChromium } from '../test/helpers/browser.js';
import { startStaticServer } from '../src/server/static-server.js';
import { median } from './stats.js';
import { pageCommit, traced, type TraceEvent } from './trace.js';
import { WATCH_CHAPTER } from './watch-bench.js';

interface LoadCost {
  style: number;
  layout: number;
  modules: number;
}

/** Style (UpdateLayoutTree), layout and module evaluation (v8.evaluateModule, on the main thread) milliseconds of one load. */
async function oneLoad(url: string): Promise<LoadCost> {
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 412, height: 823 } })).newPage();
    const events = await traced(browser, ['devtools.timeline'], async () => {
      await page.goto(url, { waitUntil: 'load' });
      // Hydration and the first idle work: their layouts count too.
      await page.waitForTimeout(1500);
    });
    // The page's own renderer only: the browser's own UI (a WebUI renderer) styles and runs modules too.
    const commit = pageCommit(events, url);
    if (!commit) throw new Error(`no CommitLoad of ${url} in the trace`);
    const total = (name: string) => {
      const all = events.filter((e) => e.ph === 'X' && e.name === name && e.pid === commit.pid);
      // Outermost events only: a module's evaluation contains its imports'.
      const inside = (e: TraceEvent, o: TraceEvent) =>
        o !== e && o.tid === e.tid && o.ts <= e.ts && e.ts + (e.dur ?? 0) <= o.ts + (o.dur ?? 0);
      return all.filter((e) => !all.some((o) => inside(e, o))).reduce((sum, e) => sum + (e.dur ?? 0) / 1000, 0);
    };
    return { style: total('UpdateLayoutTree'), layout: total('Layout'), modules: total('v8.evaluateModule') };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const loadsAt = args.indexOf('--loads');
  const loads = loadsAt >= 0 ? Number(args.splice(loadsAt, 2)[1]) : 8;
  const split = args.indexOf('--');
  const sites = split >= 0 ? args.slice(0, split) : args;
  const routes = split >= 0 ? args.slice(split + 1) : [`${WATCH_CHAPTER}/`, `zh-cn/${WATCH_CHAPTER}/`];
  if (!sites.length) throw new Error('usage: bench/first-layout.ts [--loads n] <site> [<site>…] [-- route…]');
  const servers = await Promise.all(
    sites.map((dir) => startStaticServer({ dir, basePath: BASE_PATH, port: 0, localeDirs: ['zh-cn'], log: () => {} })),
  );
  try {
    const samples = new Map<string, { [K in keyof LoadCost]: number[] }>();
    for (let load = 0; load < loads; load++) {
      for (const route of routes) {
        for (const [i, server] of servers.entries()) {
          const cost = await oneLoad(server.url + route);
          const key = `${sites[i]} ${route}`;
          const sample = samples.get(key) ?? { style: [], layout: [], modules: [] };
          for (const name of ['style', 'layout', 'modules'] as const) sample[name].push(cost[name]);
          samples.set(key, sample);
        }
      }
    }
    console.log(`First rendering in a fresh browser, 412 × 823 px, median of ${loads} loads (ms):`);
    for (const [key, { style, layout, modules }] of samples) {
      console.log(
        `${key}: style ${Math.round(median(style))}, layout ${Math.round(median(layout))} (layout ${Math.round(Math.min(...layout))}–${Math.round(Math.max(...layout))}), module evaluation ${Math.round(median(modules))}`,
      );
    }
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

await main();
