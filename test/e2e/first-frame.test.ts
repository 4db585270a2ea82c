/**
 * The first frame of a page waits for its content (src/generator/render-page.ts, rel=expect). A
 * browser parses a long page in slices when its CPU or network is slow, and paints between them:
 * the navbar half built, a comparison's first column alone, and then moves them as the rest
 * arrives. Here the server sends a chapter up to the middle of its first comparison and holds the
 * rest, as a slow network does, until the test lets it go: whatever the machine's load, the page
 * must not have been painted meanwhile, and its first frame must have the whole of <main>.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FOOTER_ID } from '../../src/shared/page-landmarks.js';
import { BASE_PATH, openPage, useSiteUnderTest, waitForHydration } from './client-support.js';

const site = useSiteUnderTest();

/** The query that asks the holding server for the page without its rel=expect link (the control). */
const WITHOUT_EXPECT = '?without-expect';

interface HoldingServer {
  url(path: string): string;
  /** Sends the rest of every held page. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A server in front of the site under test that sends `held` (a page's path under the base path)
 * up to the start of its first comparison's second column, and the rest only on release(). With
 * WITHOUT_EXPECT it sends the same page without the rel=expect link. Everything else passes through.
 */
async function startHoldingServer(origin: URL, held: string): Promise<HoldingServer> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server: Server = createServer((req, res) => {
    const [path, query = ''] = (req.url ?? '/').split(/(?=\?)/);
    if (path === `${BASE_PATH}${held}`) {
      void (async () => {
        let page = await (await fetch(new URL(path, origin))).text();
        if (query === WITHOUT_EXPECT) page = page.replace(/<link rel="expect"[^>]*>/, '');
        const firstColumn = page.indexOf('<div class="compare-column"');
        const cut = page.indexOf('<div class="compare-column"', firstColumn + 1);
        if (firstColumn < 0 || cut < 0) throw new Error(`${held} has no comparison to hold the page in`);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.write(page.slice(0, cut));
        await released;
        res.end(page.slice(cut));
      })().catch((error: unknown) => res.destroy(error as Error));
      return;
    }
    const upstream = request(
      new URL(req.url ?? '/', origin),
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => res.destroy(error));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${BASE_PATH}${path}`,
    release,
    async close() {
      release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Records, for each of the page's first frames, whether the footer (after </main>) had been parsed; and its layout shifts. */
async function recordFrames(page: Page): Promise<void> {
  await page.addInitScript((footerId: string) => {
    const record = { frames: [] as boolean[], shifts: [] as number[] };
    (window as Window & { __firstFrames?: typeof record }).__firstFrames = record;
    const frame = () => {
      record.frames.push(document.getElementById(footerId) !== null);
      if (record.frames.length < 3) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number }>)
        record.shifts.push(entry.value);
    }).observe({ type: 'layout-shift', buffered: true });
  }, FOOTER_ID);
}

const recorded = (page: Page) =>
  page.evaluate(() => (window as Window & { __firstFrames?: { frames: boolean[]; shifts: number[] } }).__firstFrames!);

/** A page of its own context, at a held page (which never loads until released). */
async function openHeld(url: string): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const opened = await openPage(site, { viewport: { width: 1280, height: 900 } });
  await recordFrames(opened.page);
  await opened.page.goto(url, { waitUntil: 'commit' });
  return opened;
}

describe('the first frame', () => {
  it('waits until <main> has arrived whole, so a page on a slow connection never moves as it loads (en, zh-cn)', async () => {
    for (const prefix of ['', 'zh-cn/']) {
      const held = await startHoldingServer(new URL(site.url()), `${prefix}dictionary/`);
      try {
        const { context, page, problems } = await openHeld(held.url(`${prefix}dictionary/`));
        // The parser has reached the hold: the comparison's first column is there, not the second.
        await expect
          .poll(() => page.evaluate(() => document.querySelectorAll('.compare-column').length), { timeout: 60_000 })
          .toBe(1);
        // The control, the same bytes held at the same place without rel=expect, is painted: the
        // browser does paint a page it has only part of (else this test could not fail).
        const control = await openHeld(held.url(`${prefix}dictionary/${WITHOUT_EXPECT}`));
        await expect
          .poll(async () => (await recorded(control.page)).frames.length, { timeout: 60_000 })
          .toBeGreaterThan(0);
        expect((await recorded(control.page)).frames[0], 'the control was painted without its footer').toBe(false);
        // The page, held for longer than the control, has had no frame at all.
        expect((await recorded(page)).frames, `${prefix}dictionary/ was painted before its <main> ended`).toEqual([]);

        held.release();
        await expect.poll(async () => (await recorded(page)).frames.length, { timeout: 60_000 }).toBeGreaterThan(0);
        expect((await recorded(page)).frames[0], 'the first frame has the footer').toBe(true);
        await waitForHydration(page);
        expect((await recorded(page)).shifts, 'layout shifts while loading').toEqual([]);
        expect(problems).toEqual([]);
        await control.context.close();
        await context.close();
      } finally {
        await held.close();
      }
    }
  });
});
