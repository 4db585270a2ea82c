/**
 * `pybook watch` end to end: a watch session on a tiny temporary book, one headless Chromium
 * tab looking at it, and the book edited, broken, fixed, extended and shrunk underneath.
 * The tests run in order and share the session; each leaves the book in a buildable state.
 */
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWatch, type WatchSession } from '../../src/cli/watch.js';
import { launchChromium } from '../helpers/browser.js';
import { chapterText, createTinyBook, type TinyBook } from './tiny-book.js';

let book: TinyBook;
let session: WatchSession;
let browser: Browser;
let page: Page;
const logLines: string[] = [];

/** Polls `check` until it returns true (watch mode reacts to file events asynchronously). */
async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; log:\n${logLines.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const url = (route: string) => `${session.server.url}${route}`;
const fetchText = async (route: string) => {
  const response = await fetch(url(route));
  return { status: response.status, text: await response.text() };
};
const waitForText = (text: string) => page.waitForFunction((t) => document.body?.innerText.includes(t) ?? false, text, { timeout: 20_000 });
/**
 * Opens a route in the shared tab. A rebuild finishing just now may make the open page reload
 * itself, which interrupts the navigation: wait for the rebuild, and retry an interrupted one.
 */
async function open(route: string): Promise<void> {
  await session.idle();
  for (let attempt = 1; ; attempt += 1) {
    try {
      await page.goto(url(route));
      return;
    } catch (error) {
      if (attempt === 5 || !String(error).includes('interrupted by another navigation')) throw error;
      // The tab reloading itself (a rebuild's reload event) took over: when it went to the same
      // address, its page is what this navigation wanted.
      await page.waitForLoadState('load').catch(() => {});
      if (page.url() === url(route)) return;
    }
  }
}
const unique = (label: string) => `${label} ${Math.random().toString(36).slice(2, 10)}`;

beforeAll(async () => {
  book = createTinyBook();
  [session, browser] = await Promise.all([
    startWatch({ config: book.configPath, outDir: path.join(book.dir, 'site'), port: 0, host: '127.0.0.1' }, (line) => logLines.push(line)),
    launchChromium(),
  ]);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
});

afterAll(async () => {
  await browser?.close();
  await session?.close();
  if (book) rmSync(book.dir, { recursive: true, force: true });
});

describe('pybook watch in a browser', () => {
  it('shows an edit in the open page by itself and keeps the scroll position', async () => {
    await open('alpha/');
    await page.evaluate(() => window.scrollTo(0, 1500));
    await eventually(() => page.evaluate(() => window.scrollY === 1500), 'the page to scroll');
    const marker = unique('Edited alpha');
    appendFileSync(book.file('en', 'alpha'), `\n${marker}\n`);
    await waitForText(marker);
    await eventually(async () => Math.abs((await page.evaluate(() => window.scrollY)) - 1500) <= 2, 'the scroll position to come back');
    expect(logLines.some((line) => /^rebuilt \(change .*alpha\.mdx\) in \d+ ms/.test(line))).toBe(true);
  });

  it('shows an edit that changes only this page in place, without reloading it', async () => {
    await open('beta/');
    await page.evaluate(() => { (window as Window & { __kept?: boolean }).__kept = true; });
    let loads = 0;
    const onLoad = () => { loads += 1; };
    page.on('load', onLoad);
    const marker = unique('In place');
    appendFileSync(book.file('en', 'beta'), `\n${marker}\n`);
    await waitForText(marker);
    page.off('load', onLoad);
    expect(loads).toBe(0);
    expect(await page.evaluate(() => (window as Window & { __kept?: boolean }).__kept)).toBe(true);
  });

  it('reloads a Chinese page when its zh-cn file changes', async () => {
    await open('zh-cn/beta/');
    const marker = unique('修改贝塔');
    appendFileSync(book.file('zh-cn', 'beta'), `\n${marker}\n`);
    await waitForText(marker);
  });

  it('shows a located error overlay for bad MDX, keeps serving the last good page, and clears it once fixed', async () => {
    await open('beta/');
    const good = readFileSync(book.file('en', 'beta'), 'utf8');
    const errorLine = good.split('\n').length + 1;
    writeFileSync(book.file('en', 'beta'), `${good}\n<Unknown />\n`);

    const overlay = page.locator('#pybook-error-overlay');
    await overlay.waitFor({ state: 'visible', timeout: 20_000 });
    await expect.poll(() => overlay.innerText()).toContain(`beta.mdx:${errorLine}:1`);
    expect(await overlay.innerText()).toContain('unknown component <Unknown>');
    // The terminal gets the same located message.
    expect(logLines.some((line) => line.startsWith('error:') && line.includes(`beta.mdx:${errorLine}:1`))).toBe(true);
    // The server still answers with the last good build.
    const served = await fetchText('beta/');
    expect(served.status).toBe(200);
    expect(served.text).toContain('Beta chapter');

    // A page opened while the build is broken shows the overlay too.
    const second = await browser.newPage();
    await second.goto(url('alpha/'));
    await second.locator('#pybook-error-overlay').waitFor({ state: 'visible', timeout: 10_000 });
    await second.close();

    const marker = unique('Fixed beta');
    writeFileSync(book.file('en', 'beta'), `${good}\n${marker}\n`);
    await waitForText(marker);
    await overlay.waitFor({ state: 'detached', timeout: 20_000 });
  });

  it('shows a broken link to a missing chapter as a located error and recovers', async () => {
    await open('gamma/');
    const good = readFileSync(book.file('en', 'gamma'), 'utf8');
    const linkLine = good.split('\n').length + 1;
    writeFileSync(book.file('en', 'gamma'), `${good}\nSee [a missing chapter](./missing.mdx).\n`);
    const overlay = page.locator('#pybook-error-overlay');
    await overlay.waitFor({ state: 'visible', timeout: 20_000 });
    await expect.poll(() => overlay.innerText()).toMatch(new RegExp(`gamma\\.mdx:${linkLine}:\\d+`));
    expect(await overlay.innerText()).toContain('missing');
    expect((await fetchText('gamma/')).status).toBe(200);

    writeFileSync(book.file('en', 'gamma'), good);
    await overlay.waitFor({ state: 'detached', timeout: 20_000 });
  });

  it('adds a new chapter to the sidebar when its file and its sidebar entry appear', async () => {
    await open('alpha/');
    writeFileSync(book.file('en', 'delta'), chapterText('en', 'delta', 'Delta chapter'));
    book.writeConfig(['alpha', 'beta', 'gamma', 'delta']);
    await page.waitForFunction(() => document.querySelector('nav.sidebar-nav')?.textContent?.includes('Delta chapter') ?? false, undefined, { timeout: 30_000 });
    const delta = await fetchText('delta/');
    expect(delta.status).toBe(200);
    expect(delta.text).toContain('Delta chapter');
  });

  it('rebuilds every page when the config changes', async () => {
    const title = unique('Renamed book');
    book.writeConfig(['alpha', 'beta', 'gamma', 'delta'], title);
    await eventually(async () => (await fetchText('alpha/')).text.includes(title), 'the new title on alpha', 30_000);
    for (const route of ['', 'beta/', 'gamma/', 'delta/', 'zh-cn/', 'zh-cn/alpha/', 'zh-cn/gamma/', '404.html']) {
      expect((await fetchText(route)).text, route).toContain(route.startsWith('zh-cn/') ? `${title}（中文）` : title);
    }
  });

  it('deletes a chapter: a listed chapter without its file is a located error; unlisted, its route is 404', async () => {
    rmSync(book.file('en', 'gamma'));
    rmSync(book.file('zh-cn', 'gamma'));
    await eventually(() => logLines.some((line) => line.startsWith('error:') && line.includes('"gamma"') && line.includes('book.config.json')), 'the missing-chapter error');
    expect((await fetchText('gamma/')).status).toBe(200);

    book.writeConfig(['alpha', 'beta', 'delta']);
    await eventually(async () => (await fetchText('gamma/')).status === 404, 'gamma to be gone');
    expect((await fetchText('zh-cn/gamma/')).status).toBe(404);
    await open('alpha/');
    expect(await page.locator('nav.sidebar-nav').innerText()).not.toContain('Gamma chapter');
  });

  it('is still watching after all the errors above, and an up-to-date page does not reload itself', async () => {
    await open('delta/');
    const html = await page.content();
    expect(html).not.toContain('__PYBOOK_PAGE_FINGERPRINT__');
    expect(html).toMatch(/fingerprint=[0-9a-f]{16}/);
    let loads = 0;
    page.on('load', () => { loads += 1; });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(loads).toBe(0);
    const marker = unique('Still alive');
    appendFileSync(book.file('en', 'delta'), `\n${marker}\n`);
    await waitForText(marker);
    expect(await page.locator('#pybook-error-overlay').count()).toBe(0);
  });
});
