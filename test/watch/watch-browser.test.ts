/**
 * `pybook watch` end to end: a watch session on a tiny temporary book, one headless Chromium
 * tab looking at it, and the book edited, broken, fixed, extended and shrunk underneath.
 * The tests run in order and share the session; each leaves the book in a buildable state.
 */
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWatch, type WatchSession } from '../../src/cli/watch.js';
import { TEMPLATE_FILE } from '../../src/generator/render-page.js';
import { launchChromium, nextFrames } from '../helpers/browser.js';
import { chapterText, createTinyBook, type TinyBook } from './tiny-book.js';

let book: TinyBook;
let session: WatchSession;
let browser: Browser;
let page: Page;
const logLines: string[] = [];
/** What the page's Content-Security-Policy blocked, as Chromium reports it on the console. */
const blocked: string[] = [];

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
/**
 * Waits for text in the page's main content. textContent, not innerText: an edit at a chapter's end
 * lands in a block far below the window, which the browser has not laid out (content-visibility),
 * and innerText leaves out the text of blocks not laid out.
 */
const waitForText = (text: string) =>
  page.waitForFunction((t) => document.querySelector('main')?.textContent?.includes(t) ?? false, text, {
    timeout: 20_000,
  });
/**
 * Opens a route in the shared tab. A rebuild finishing just now may make the open page reload
 * itself, which interrupts the navigation: wait for the rebuild, and retry an interrupted one.
 */
async function open(route: string): Promise<void> {
  await session.idle();
  for (let attempt = 1; ; attempt += 1) {
    try {
      await page.goto(url(route));
      // An edit is shown in place only by a running client (else the tab reloads, by design):
      // on a busy machine the reload event can beat hydration, so wait for it.
      await page.waitForSelector('html[data-hydrated]', { state: 'attached', timeout: 30_000 });
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

let templateFile: string;

beforeAll(async () => {
  book = createTinyBook();
  // A copy of the page template, so that a test can edit it without touching pybook's own.
  templateFile = path.join(book.dir, 'templates', 'page.html');
  mkdirSync(path.dirname(templateFile), { recursive: true });
  copyFileSync(TEMPLATE_FILE, templateFile);
  [session, browser] = await Promise.all([
    startWatch(
      { config: book.configPath, outDir: path.join(book.dir, 'site'), port: 0, host: '127.0.0.1', templateFile },
      (line) => logLines.push(line),
    ),
    launchChromium(),
  ]);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
});

afterAll(async () => {
  await browser?.close();
  await session?.close();
  if (book) rmSync(book.dir, { recursive: true, force: true });
});

describe('pybook watch in a browser', () => {
  it("shows an edit in the open page by itself and keeps the reader's place", async () => {
    await open('alpha/');
    // Scrolled as a reader scrolls, so that the blocks passed on the way are laid out and have their
    // real heights (blocks off screen are laid out late: content-visibility).
    await page.mouse.move(700, 400);
    while (await page.evaluate(() => window.scrollY < 1500)) {
      await page.mouse.wheel(0, 300);
      await nextFrames(page);
    }
    // The place is the block at the top of the window and where it stands.
    const place = () =>
      page.evaluate(() => {
        const block = [...document.querySelectorAll('.markdown > *')].find(
          (b) => b.getBoundingClientRect().bottom > 0,
        )!;
        return { text: block.textContent.slice(0, 80), top: Math.round(block.getBoundingClientRect().top) };
      });
    const before = await place();
    // A new section changes the page's model (its table of contents): the page is rendered anew.
    const marker = unique('Edited alpha');
    appendFileSync(book.file('en', 'alpha'), `\n## ${marker}\n\nText under it.\n`);
    await waitForText(marker);
    await eventually(async () => {
      const now = await place();
      return now.text === before.text && Math.abs(now.top - before.top) <= 2;
    }, "the reader's place to come back");
    expect(logLines.some((line) => /^rebuilt \(change .*alpha\.mdx\) in \d+ ms/.test(line))).toBe(true);
    // The live-reload script is allowed by its hash, as the head's script is: no inline script else.
    const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    const scripts = policy!.split(';').find((directive) => directive.trim().startsWith('script-src'))!;
    expect(scripts.trim()).toMatch(/^script-src 'self' 'sha256-[A-Za-z0-9+/=]+' 'sha256-[A-Za-z0-9+/=]+'$/);
    expect(blocked).toEqual([]);
  });

  it('shows an edit that changes only this page in place, without reloading it', async () => {
    await open('beta/');
    await page.evaluate(() => {
      (window as Window & { __kept?: boolean }).__kept = true;
    });
    let loads = 0;
    const onLoad = () => {
      loads += 1;
    };
    page.on('load', onLoad);
    const marker = unique('In place');
    appendFileSync(book.file('en', 'beta'), `\n${marker}\n`);
    await waitForText(marker);
    page.off('load', onLoad);
    expect(loads).toBe(0);
    expect(await page.evaluate(() => (window as Window & { __kept?: boolean }).__kept)).toBe(true);
  });

  it('shows a text edit with the page sent in the event, patching only the blocks that changed', async () => {
    await open('beta/');
    await page.waitForSelector('html[data-hydrated]');
    await page.evaluate(() => {
      (document.querySelector('.markdown > p') as HTMLElement & { __kept?: boolean }).__kept = true;
    });
    const fetched: string[] = [];
    const onRequest = (request: { url(): string }) => {
      fetched.push(request.url());
    };
    page.on('request', onRequest);
    const marker = unique('Patched beta');
    appendFileSync(book.file('en', 'beta'), `\n${marker}\n`);
    await waitForText(marker);
    page.off('request', onRequest);
    // The first paragraph did not change: it is the same element (the article was not re-created).
    expect(
      await page.evaluate(() => (document.querySelector('.markdown > p') as HTMLElement & { __kept?: boolean }).__kept),
    ).toBe(true);
    // Neither the page nor a fresh copy of its module was fetched: the event carried it. (The
    // module without a query may be prefetched any time: the chapter links to itself.)
    expect(fetched.filter((address) => /\/beta\/(\?|$)|\/beta\.js\?/.test(address))).toEqual([]);
  });

  it('shows a change of the page model (a new section in the table of contents) in place', async () => {
    await open('beta/');
    await page.waitForSelector('html[data-hydrated]');
    let loads = 0;
    const onLoad = () => {
      loads += 1;
    };
    page.on('load', onLoad);
    const heading = unique('Added section');
    appendFileSync(book.file('en', 'beta'), `\n## ${heading}\n\nText of the added section.\n`);
    await page.waitForFunction(
      (text) => document.querySelector('.main-toc')?.textContent?.includes(text) ?? false,
      heading,
      { timeout: 20_000 },
    );
    await waitForText('Text of the added section.');
    page.off('load', onLoad);
    expect(loads).toBe(0);
  });

  it('shows the new version of a page edited while the tab showed another, after client-side navigation', async () => {
    await session.idle();
    const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      // Records the reload events the tab receives (its listener runs before the page's own).
      await tab.addInitScript(`(() => {
        const Source = window.EventSource;
        window.__reloads = [];
        window.EventSource = class extends Source {
          constructor(...args) { super(...args); this.addEventListener('reload', (event) => window.__reloads.push(...JSON.parse(event.data).routes)); }
        };
      })()`);
      await tab.goto(url('alpha/'));
      await tab.waitForSelector('html[data-hydrated]');
      let loads = 0;
      tab.on('load', () => {
        loads += 1;
      });
      const gammaLink = 'nav.sidebar-nav a[href$="/gamma/"]';
      // Visit gamma client-side (its module is now loaded in the tab), then come back.
      await tab.click(gammaLink);
      await tab.waitForFunction(() => document.querySelector('h1')?.textContent === 'Gamma chapter');
      await tab.goBack();
      await tab.waitForFunction(() => document.querySelector('h1')?.textContent === 'Alpha chapter');

      const marker = unique('Gamma edited meanwhile');
      appendFileSync(book.file('en', 'gamma'), `\n${marker}\n`);
      const gammaRoute = new URL(url('gamma/')).pathname;
      await tab.waitForFunction(
        (route) => (window as Window & { __reloads?: string[] }).__reloads?.includes(route) ?? false,
        gammaRoute,
        { timeout: 20_000 },
      );
      // The tab showing alpha did not reload; navigating to gamma shows the edit, not the module loaded before.
      await tab.click(gammaLink);
      await tab.waitForFunction((text) => document.body.innerText.includes(text), marker, { timeout: 20_000 });
      expect(loads).toBe(0);
    } finally {
      await tab.close();
    }
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
    await page.waitForFunction(
      () => document.querySelector('nav.sidebar-nav')?.textContent?.includes('Delta chapter') ?? false,
      undefined,
      { timeout: 30_000 },
    );
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
    await eventually(
      () =>
        logLines.some(
          (line) => line.startsWith('error:') && line.includes('"gamma"') && line.includes('book.config.json'),
        ),
      'the missing-chapter error',
    );
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
    expect(html).toMatch(/data-fingerprint="[0-9a-f]{16}"/);
    let loads = 0;
    page.on('load', () => {
      loads += 1;
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(loads).toBe(0);
    const marker = unique('Still alive');
    appendFileSync(book.file('en', 'delta'), `\n${marker}\n`);
    await waitForText(marker);
    expect(await page.locator('#pybook-error-overlay').count()).toBe(0);
  });

  it('keeps following book.config.json after it is deleted and written again (git checkout, many editors)', async () => {
    const config = readFileSync(book.configPath, 'utf8');
    rmSync(book.configPath);
    await eventually(
      () => logLines.some((line) => line.startsWith('error:') && line.includes('cannot read the book configuration')),
      'the missing-config error',
    );
    const title = unique('Recreated book');
    writeFileSync(
      book.configPath,
      config.replace(
        /"en": "[^"]*",\n\s*"zh-cn": "[^"]*（中文）"/,
        `"en": "${title}",\n    "zh-cn": "${title}（中文）"`,
      ),
    );
    await eventually(
      async () => (await fetchText('alpha/')).text.includes(title),
      'the recreated config to apply',
      30_000,
    );
    // And it is still watched: a second edit applies too.
    const again = unique('Edited again');
    writeFileSync(book.configPath, readFileSync(book.configPath, 'utf8').replaceAll(title, again));
    await eventually(async () => (await fetchText('alpha/')).text.includes(again), 'the second config edit', 30_000);
  });

  it('applies an edit of the page template on the next rebuild', async () => {
    const marker = unique('template-marker').replace(' ', '-');
    writeFileSync(
      templateFile,
      readFileSync(templateFile, 'utf8').replace(
        '<meta name="generator"',
        `<meta name="x-test" content="${marker}">\n<meta name="generator"`,
      ),
    );
    await eventually(async () => (await fetchText('beta/')).text.includes(marker), 'the template edit on beta', 30_000);
  });

  it('writes the whole site again when the output folder was deleted while watching', async () => {
    await session.idle();
    rmSync(path.join(book.dir, 'site'), { recursive: true, force: true });
    appendFileSync(book.file('en', 'alpha'), `\n${unique('After the folder was deleted')}\n`);
    await eventually(async () => (await fetchText('beta/')).status === 200, 'beta to be served again');
    expect((await fetchText('zh-cn/delta/')).status).toBe(200);
    expect(existsSync(path.join(book.dir, 'site', '.pybook-output'))).toBe(true);
  });

  it('rapid saves (truncate, then write) never show an error', async () => {
    await session.idle();
    const errorsBefore = logLines.filter((line) => line.startsWith('error:')).length;
    const good = readFileSync(book.file('en', 'beta'), 'utf8');
    const alpha = readFileSync(book.file('en', 'alpha'), 'utf8');
    // Saves of two files in quick succession: a build started by one may read the other empty.
    for (let i = 0; i < 30; i++) {
      writeFileSync(book.file('en', 'beta'), '');
      writeFileSync(book.file('en', 'alpha'), `${alpha}\nRapid save ${i}.\n`);
      await new Promise((resolve) => setTimeout(resolve, i % 7));
      writeFileSync(book.file('en', 'beta'), `${good}\nSave number ${i}.\n`);
    }
    await eventually(async () => (await fetchText('beta/')).text.includes('Save number 29.'), 'the last save');
    await session.idle();
    expect(logLines.filter((line) => line.startsWith('error:')).slice(errorsBefore)).toEqual([]);
    writeFileSync(book.file('en', 'beta'), good);
    writeFileSync(book.file('en', 'alpha'), alpha);
  });

  it('moves the server and the open tab to a new basePath', async () => {
    await open('alpha/');
    const before = session.server.url;
    book.writeConfig(['alpha', 'beta', 'delta'], 'Moved book', { basePath: '/moved-guide/' });
    await page.waitForURL(/\/moved-guide\/alpha\/$/, { timeout: 30_000 });
    await waitForText('Alpha chapter');
    expect(session.server.url).toMatch(/\/moved-guide\/$/);
    expect(new URL(session.server.url).port).toBe(new URL(before).port);
    expect(
      logLines.some((line) =>
        line.includes('basePath changed from /python-guide-for-javascript-engineers/ to /moved-guide/'),
      ),
    ).toBe(true);
    expect((await fetchText('beta/')).status).toBe(200);
  });
});
