import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Builder } from '../../src/generator/build.js';
import { writeSiteAtomically } from '../../src/output/write-site.js';
import type { BookConfig } from '../../src/shared/model/config.js';
import type { RunningServer } from '../../src/server/static-server.js';
import { BASE_PATH, launchChromium, newContext, serveSite, watchConsole } from '../helpers/browser.js';
import { createTinyBook, type TinyBook } from '../watch/tiny-book.js';
import { markWindow, waitForHydration, windowMarkerKept } from './client-support.js';

/** A book whose second category is configured collapsed: alpha | Closed: beta, gamma. */
let book: TinyBook;
let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  book = createTinyBook();
  const config = JSON.parse(readFileSync(book.configPath, 'utf8')) as Partial<BookConfig>;
  config.sidebar = [
    { type: 'category', label: { en: 'Open', 'zh-cn': '展开' }, items: ['alpha'] },
    { type: 'category', label: { en: 'Closed', 'zh-cn': '折叠' }, collapsed: true, items: ['beta', 'gamma'] },
  ];
  writeFileSync(book.configPath, JSON.stringify(config));
  // The logo and cover, so that every request of the page succeeds.
  cpSync(new URL('../../book/static', import.meta.url), path.join(book.dir, 'book', 'static'), { recursive: true });
  const result = await new Builder({ configPath: book.configPath }).build();
  const siteDir = path.join(book.dir, 'site');
  writeSiteAtomically(siteDir, result.files, result.staticDirs);
  [browser, server] = await Promise.all([launchChromium(), serveSite(siteDir)]);
});

afterAll(async () => {
  await Promise.all([browser?.close(), server?.close()]);
  rmSync(book.dir, { recursive: true, force: true });
});

const url = (route: string) => `http://127.0.0.1:${server.port}${BASE_PATH}${route}`;
/** The category configured collapsed: a native disclosure (it works before hydration). */
const closedCategory = '.sidebar .sidebar-category > details:has(> summary:has-text("Closed"))';
const isOpen = (page: Page) => page.$eval(closedCategory, (d: HTMLDetailsElement) => d.open);

describe('a sidebar category configured collapsed', () => {
  it('stays closed on other pages and is open on the pages of its own chapters, and hydrates cleanly', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(url('alpha/'));
    await waitForHydration(page);
    expect(await isOpen(page)).toBe(false);
    expect(await page.locator(`.sidebar a[href="${BASE_PATH}beta/"]`).isVisible()).toBe(false);
    await page.goto(url('gamma/'));
    await waitForHydration(page);
    expect(await isOpen(page)).toBe(true);
    expect(await page.getAttribute(`.sidebar a[href="${BASE_PATH}gamma/"]`, 'aria-current')).toBe('page');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('opens when client navigation enters it', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(url('alpha/'));
    await waitForHydration(page);
    await markWindow(page);
    await page.click('.pagination-next');
    await page.waitForURL(url('beta/'));
    await expect.poll(() => isOpen(page)).toBe(true);
    expect(await page.getAttribute(`.sidebar a[href="${BASE_PATH}beta/"]`, 'aria-current')).toBe('page');
    expect(await windowMarkerKept(page)).toBe(true);
    await context.close();
  });
});
