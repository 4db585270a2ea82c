/**
 * Reading offline across deployments, on a tiny book built into one folder again and again, as a
 * host is deployed to: a new build is announced ("A new version of the book is available —
 * Reload") and arrives with the next navigation or the reload, never mid-page and never mixed
 * with an older build's files, online or offline; a build with `"offline": false` removes the
 * worker and its caches from a reader's browser; `pybook watch` registers no worker and removes
 * one left over from a served build at the same address.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Builder } from '../../src/generator/build.js';
import { writeSiteAtomically } from '../../src/output/write-site.js';
import { startWatch } from '../../src/cli/watch.js';
import type { RunningServer } from '../../src/server/static-server.js';
import { launchChromium, newContext, serveSite, watchConsole } from '../helpers/browser.js';
import { chapterText, createTinyBook, type TinyBook } from '../watch/tiny-book.js';
import { markWindow, waitForHydration, windowMarkerKept } from './client-support.js';
import { openOfflinePanel, makeAvailableOffline, storedUrls, waitForWorker } from './offline-support.js';

const BASE = '/python-guide-for-javascript-engineers/';

let book: TinyBook;
let outDir: string;
let browser: Browser;
let server: RunningServer;
const url = (route = '') => `http://127.0.0.1:${server.port}${BASE}${route}`;

/** Builds the tiny book and deploys it into the served folder, replacing the last build. */
async function deploy(): Promise<string> {
  const result = await new Builder({ configPath: book.configPath }).build();
  writeSiteAtomically(outDir, result.files, result.staticDirs);
  const worker = readFileSync(path.join(outDir, 'sw.js'), 'utf8');
  return /"build":"([0-9a-f]+)"/.exec(worker)?.[1] ?? 'off';
}

/** The URLs of the files the deployed worker lists (the build's own files). */
function listedUrls(): Set<string> {
  const worker = readFileSync(path.join(outDir, 'sw.js'), 'utf8');
  const manifest = JSON.parse(worker.slice(worker.indexOf('=') + 1, worker.indexOf(';\n'))) as {
    files: Array<{ u: string }>;
  };
  return new Set(manifest.files.map((file) => file.u));
}

const buildOf = (page: Page) => page.locator('meta[name="pybook-build"]').getAttribute('content');

/** The site's scripts, styles and data the page loaded (performance entries), as URL paths. */
const assetsLoaded = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name))
      .filter(
        (u) => u.origin === location.origin && u.pathname.includes('/assets/') && !u.pathname.includes('/runner/'),
      )
      .map((u) => u.pathname + u.search),
  );

/** Asks the registration to look for a newer worker now (as a page does when the reader comes back to it). */
const checkForUpdate = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    await registration?.update();
  });

/**
 * The versions of the book's service workers, as DevTools sees them (the CDP ServiceWorker domain):
 * their ids, whether each runs, and its state ("activated", "installed" for one that waits, ...).
 */
async function workerVersions(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const versions = new Map<string, { versionId: string; runningStatus: string; status: string }>();
  cdp.on('ServiceWorker.workerVersionUpdated', (event) => {
    for (const version of event.versions) versions.set(version.versionId, version);
  });
  await cdp.send('ServiceWorker.enable');
  return { cdp, versions };
}

/**
 * Waits until the registration has no waiting worker and the page's controller is its active one.
 *
 * Chromium swaps in a new worker once the old one is idle, and stops an idle worker after 30 s, or
 * at once when skipWaiting hurries it. It never stops a worker DevTools is attached to, and
 * Playwright attaches to every worker: an old worker that something woke after skipWaiting then
 * held the new one back for the five minutes Chromium gives up after (about 1 run in 8 on a busy
 * machine, never without DevTools). So, once the page has no request in flight, the test stops
 * the worker being replaced, as the browser would once it is idle. The test sends it no message:
 * a message is an event, which would hold the swap back.
 */
async function takenOver(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  const { cdp, versions } = await workerVersions(page);
  try {
    await expect
      .poll(
        async () => {
          const states = [...versions.values()];
          const replacing = states.some((v) => v.status === 'installed' || v.status === 'activating');
          for (const version of states)
            if (replacing && version.status === 'activated' && version.runningStatus !== 'stopped')
              await cdp.send('ServiceWorker.stopWorker', { versionId: version.versionId });
          return page.evaluate(async () => {
            const registration = await navigator.serviceWorker.getRegistration();
            return (
              registration !== undefined &&
              !registration.waiting &&
              !registration.installing &&
              registration.active !== null &&
              navigator.serviceWorker.controller === registration.active
            );
          });
        },
        { timeout: 30_000 },
      )
      .toBe(true);
  } finally {
    await cdp.detach();
  }
}

/** The build of the worker now in charge of the page. */
const controllerBuild = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string | undefined>((resolve) => {
        const controller = navigator.serviceWorker.controller;
        if (!controller) return resolve(undefined);
        const channel = new MessageChannel();
        channel.port1.onmessage = (event: MessageEvent<{ build?: string }>) => resolve(event.data.build);
        controller.postMessage({ type: 'build' }, [channel.port2]);
      }),
  );

beforeAll(async () => {
  book = createTinyBook();
  // The book's icon (the web app manifest's and the pages'), as the real book has.
  mkdirSync(path.join(book.dir, 'book', 'static', 'img'), { recursive: true });
  copyFileSync(
    path.join(process.cwd(), 'book', 'static', 'img', 'logo.svg'),
    path.join(book.dir, 'book', 'static', 'img', 'logo.svg'),
  );
  outDir = path.join(book.dir, 'site');
  await deploy();
  [browser, server] = await Promise.all([launchChromium(), serveSite(outDir)]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (book) rmSync(book.dir, { recursive: true, force: true });
});

describe('a new build deployed into the same folder', () => {
  let context: BrowserContext;
  let first: Page;
  let problems: string[];
  let v1: string;
  let v2: string;
  let v1Files: Set<string>;

  beforeAll(async () => {
    context = await newContext(browser, { serviceWorkers: 'allow' });
    context.setDefaultTimeout(30_000);
    first = await context.newPage();
    problems = watchConsole(first);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('is announced in an open page, which stays as it is until the reader moves on', async () => {
    await first.goto(url('alpha/'));
    await waitForHydration(first);
    v1 = (await buildOf(first))!;
    v1Files = listedUrls();
    await waitForWorker(first);
    const panel = await openOfflinePanel(first, 'en');
    await makeAvailableOffline(panel, 'en');
    await first.locator('.offline-menu summary').click();
    await markWindow(first);

    writeFileSyncChapter('gamma', 'Gamma, second edition');
    v2 = await deploy();
    expect(v2).not.toBe(v1);
    await checkForUpdate(first);
    const notice = first.locator('.offline-update[role="status"]');
    await notice.waitFor();
    expect(await notice.locator('p').textContent()).toBe('A new version of the book is available.');
    expect(await notice.locator('button').textContent()).toBe('Reload');
    // Nothing changed under the reader.
    expect(await windowMarkerKept(first)).toBe(true);
    expect(await buildOf(first)).toBe(v1);
    expect(await controllerBuild(first)).toBe(v1);
  });

  it("the next link opens the new build's page whole, with the new build's files only", async () => {
    const listed = listedUrls(); // v2's
    await first.locator('.sidebar a.sidebar-link[href$="/gamma/"]').first().click();
    await first.waitForURL(url('gamma/'));
    await waitForHydration(first);
    expect(await windowMarkerKept(first)).toBe(false);
    expect(await buildOf(first)).toBe(v2);
    expect(await first.locator('main h1').textContent()).toBe('Gamma, second edition');
    const loaded = await assetsLoaded(first);
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.filter((asset) => !listed.has(asset))).toEqual([]);
    // A page of the new build lets the new worker take over at once.
    await takenOver(first);
    expect(await controllerBuild(first)).toBe(v2);
  });

  it('offline, every page opens with the files of its own build, whichever worker is in charge', async () => {
    const lists: Record<string, Set<string>> = { [v1]: v1Files, [v2]: listedUrls() };
    // The new worker stored the new build of the language the reader kept as it installed: both
    // builds' copies of the chapters are stored now.
    await expect
      .poll(async () => (await storedUrls(first)).filter((u) => u.includes('/beta/')).length, { timeout: 30_000 })
      .toBe(2);
    await context.setOffline(true);
    for (const route of ['beta/', 'gamma/', 'alpha/']) {
      await first.goto(url(route));
      await waitForHydration(first);
      const build = (await buildOf(first))!;
      expect([v1, v2]).toContain(build);
      expect((await assetsLoaded(first)).filter((asset) => !lists[build].has(asset))).toEqual([]);
    }
    await context.setOffline(false);
    expect(problems).toEqual([]);
  });

  it('Reload in a page of the older build brings the newer one', async () => {
    await first.goto(url('alpha/'));
    await waitForHydration(first);
    writeFileSyncChapter('gamma', 'Gamma, third edition');
    const v3 = await deploy();
    await checkForUpdate(first);
    await first.locator('.offline-update button').click();
    await first.waitForFunction(
      (b) => document.querySelector('meta[name="pybook-build"]')?.getAttribute('content') === b,
      v3,
    );
    await waitForHydration(first);
    await takenOver(first);
    expect(await controllerBuild(first)).toBe(v3);
  });

  it('a build with "offline": false removes the worker and its caches, and has no manifest and no worker', async () => {
    book.writeConfig(['alpha', 'beta', 'gamma'], undefined, { offline: false });
    try {
      await deploy();
    } finally {
      book.writeConfig(['alpha', 'beta', 'gamma']);
    }
    expect(existsSync(path.join(outDir, 'manifest.webmanifest'))).toBe(false);
    expect(existsSync(path.join(outDir, 'zh-cn', 'manifest.webmanifest'))).toBe(false);
    // What is at sw.js only removes an earlier build's worker: no fetch handler, no list of files.
    const retiring = readFileSync(path.join(outDir, 'sw.js'), 'utf8');
    expect(retiring).toContain('unregister');
    expect(retiring).not.toContain("'fetch'");
    await checkForUpdate(first);
    await expect
      .poll(
        () =>
          first.evaluate(async () => ({
            registrations: (await navigator.serviceWorker.getRegistrations()).length,
            caches: (await caches.keys()).filter((name) => name.startsWith('pybook:')).length,
          })),
        { timeout: 30_000 },
      )
      .toEqual({ registrations: 0, caches: 0 });
    await first.goto(url('alpha/'));
    await waitForHydration(first);
    expect(await first.locator('link[rel="manifest"], meta[name="pybook-build"], .offline-menu').count()).toBe(0);
    const policy = await first.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(policy).toContain("worker-src 'none'");
    expect(await first.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  });
});

function writeFileSyncChapter(slug: string, title: string): void {
  for (const locale of ['en', 'zh-cn'] as const)
    writeFileSync(book.file(locale, slug), chapterText(locale, slug, title));
}

describe('pybook watch', () => {
  it('registers no worker, and removes one a served build left at the same address', async () => {
    await deploy();
    const context = await newContext(browser, { serviceWorkers: 'allow' });
    try {
      const page = await context.newPage();
      await page.goto(url('alpha/'));
      await waitForHydration(page);
      await waitForWorker(page);
      const port = server.port;
      await server.close();
      const session = await startWatch(
        { config: book.configPath, outDir: path.join(book.dir, 'watch-site'), port, host: '127.0.0.1' },
        () => {},
      );
      try {
        const response = await page.request.get(`${session.server.url}sw.js`);
        expect(response.status()).toBe(404);
        await page.goto(`${session.server.url}beta/`);
        await waitForHydration(page);
        expect(await page.locator('link[rel="manifest"], meta[name="pybook-build"], .offline-menu').count()).toBe(0);
        await expect
          .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), {
            timeout: 30_000,
          })
          .toBe(0);
        // And it stays so: the next page registers nothing.
        await page.goto(`${session.server.url}gamma/`);
        await waitForHydration(page);
        await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 })));
        expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
      } finally {
        await session.close();
        server = await serveSite(outDir);
      }
    } finally {
      await context.close();
    }
  });
});
