/**
 * Work a chapter's start-up must not cause where Lighthouse and DevTools measure it. With the
 * Network domain on (as they have it), the browser records each request's initiator stack; a
 * request started from the bundle's top level makes V8 parse the whole bundle a second time for the
 * source positions of that frame (10-20 ms of main thread here, inside the task that evaluates the
 * modules, four times that in Lighthouse's simulated phone).
 */
import { describe, expect, it } from 'vitest';
import { pageMainThread, traced, type TraceEvent } from '../../bench/trace.js';
import { openPage, useSiteUnderTest, waitForHydration } from './client-support.js';

const site = useSiteUnderTest();

const within = (inner: TraceEvent, outer: TraceEvent) =>
  inner.ts >= outer.ts && inner.ts + (inner.dur ?? 0) <= outer.ts + (outer.dur ?? 0);

describe('start-up under DevTools', () => {
  for (const path of ['hello-world/', 'zh-cn/hello-world/']) {
    it(`${path}: collecting the requests' initiators never makes V8 parse the app bundle again`, async () => {
      const { context, page, problems } = await openPage(site);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      const url = site.url(path);
      const events = await traced(
        site.browser,
        ['devtools.timeline', 'v8', 'v8.execute', 'disabled-by-default-v8.compile'],
        async () => {
          await page.goto(url);
          await waitForHydration(page);
        },
      );
      const main = pageMainThread(events, url);
      // The trace holds the modules' evaluation and the site data's request, or it proves nothing.
      expect(main.some((e) => e.name === 'v8.evaluateModule')).toBe(true);
      expect(
        events.some((e) => e.name === 'ResourceSendRequest' && JSON.stringify(e.args).includes('/assets/site/')),
      ).toBe(true);
      // Source positions of a function are collected by parsing that function again; of a
      // module's top level, by parsing the whole module (V8.ParseProgram).
      const reparses = main.filter(
        (e) => e.name === 'V8.CollectSourcePositions' && main.some((p) => p.name === 'V8.ParseProgram' && within(p, e)),
      );
      expect(reparses.map((e) => `${((e.dur ?? 0) / 1000).toFixed(1)} ms`)).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
