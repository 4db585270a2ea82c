import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { startStaticServer, type RunningServer } from '../../src/server/static-server.js';

export const BASE_PATH = '/python-guide-for-javascript-engineers/';

/** Debian's Chromium and the flags this machine needs (no network beyond loopback). */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/** Where the test run's shared Chromium listens (set by the global setup, see global-setup.ts). */
export const SHARED_BROWSER_ENV = 'PYBOOK_TEST_BROWSER';

/**
 * The test run's Chromium. Under vitest, every file connects to the one browser the global setup
 * started, instead of starting its own (a Chromium start costs about 1.5 s of CPU on this machine,
 * and there are 30 browser files). Each file still works in contexts of its own, which share no
 * storage, cache or cookies with another file's; closing the returned browser closes the file's
 * contexts and leaves the shared one running. Outside vitest (a script, a tool), it starts one.
 */
export function launchChromium(): Promise<Browser> {
  const shared = process.env[SHARED_BROWSER_ENV];
  return shared ? chromium.connect(shared) : chromium.launch(CHROMIUM);
}

/** The site that the global setup built (see global-setup.ts). */
export function builtSiteDir(): string {
  const dir = process.env.PYBOOK_TEST_SITE;
  if (!dir) throw new Error('PYBOOK_TEST_SITE is not set: run the tests through vitest (globalSetup builds the site)');
  return dir;
}

export async function serveSite(dir = builtSiteDir()): Promise<RunningServer> {
  return startStaticServer({ dir, basePath: BASE_PATH, port: 0, localeDirs: ['zh-cn'], log: () => {} });
}

/** Collects console errors and warnings and uncaught page errors, for "no console errors" assertions. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    // Playwright's own note when a context blocks service workers (newContext's default), not the page's.
    if (message.text() === 'Service Worker registration blocked by Playwright') return;
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/**
 * A browser context for a test. The book's service worker (src/offline/) is blocked unless a test
 * asks for it (`serviceWorkers: 'allow'`): it takes over the page once the page is idle, and a page
 * it controls loads through it, which Playwright's request routing and counting do not see the same
 * way; the offline tests (test/e2e/offline*.test.ts) are where it runs.
 */
export async function newContext(
  browser: Browser,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block', ...options });
}

/**
 * Waits until the page has rendered two more frames: the first lays out what a scroll or a change
 * brought in (blocks off screen take their real heights then: content-visibility), the second
 * runs after that layout has been painted. Tests read places and click only after it.
 */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
}
