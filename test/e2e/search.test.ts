import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import path from 'node:path';
import os from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import {
  builtSiteDir,
  launchChromium,
  newContext,
  nextFrames,
  serveSite,
  watchConsole,
  BASE_PATH,
} from '../helpers/browser.js';
import { groupByPage, inGroupOrder } from '../../src/search/shared/group.js';
import { findMatches } from '../../src/search/shared/highlight.js';
import { loadEngine, loadTexts } from '../search/relevance-queries.js';
import { startStaticServer, type RunningServer } from '../../src/server/static-server.js';
import { Builder } from '../../src/generator/build.js';
import { writeSiteAtomically } from '../../src/output/write-site.js';
import { chapter, createFixtureBook, FIXTURE_BASE, type FixtureBook } from '../fixtures/fixture-book.js';

let browser: Browser;
let server: RunningServer;
let context: BrowserContext;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), serveSite()]);
  context = await newContext(browser);
});
afterAll(async () => {
  await context?.close();
  await Promise.all([browser?.close(), server?.close()]);
});

const LOCALES = [
  {
    code: 'en',
    language: 'en',
    prefix: '',
    query: 'dictionary',
    deepQuery: 'frozenset',
    chapter: 'dictionary',
    noResults: 'No results',
    seeAll: 'See all results',
    noDocs: 'No documents were found',
    count: (n: number) => (n === 1 ? 'One document found' : `${n} documents found`),
    remove: 'Remove highlighting',
    indexPath: `${BASE_PATH}search-index.json`,
  },
  {
    code: 'zh-cn',
    language: 'zh',
    prefix: 'zh-cn/',
    query: '字典',
    deepQuery: '正则表达式',
    chapter: 'dictionary',
    noResults: '没有结果',
    seeAll: '查看全部结果',
    noDocs: '没有找到相关章节',
    count: (n: number) => `找到 ${n} 章`,
    remove: '取消高亮',
    indexPath: `${BASE_PATH}zh-cn/search-index.json`,
  },
] as const;

/** Opens a page and records every request for the search index. */
async function open(
  pathname: string,
): Promise<{ page: Page; indexRequests: string[]; textRequests: string[]; problems: string[] }> {
  const page = await context.newPage();
  const problems = watchConsole(page);
  const indexRequests: string[] = [];
  const textRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('search-index.json')) indexRequests.push(request.url());
    if (request.url().includes('/search-text/')) textRequests.push(request.url());
  });
  await page.goto(new URL(pathname, server.url).href, { waitUntil: 'load' });
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'));
  return { page, indexRequests, textRequests, problems };
}

const input = (page: Page) => page.locator('#navbar-search-input');
const results = (page: Page) => page.locator('.search-dropdown .search-result [role="option"]');

describe.each(LOCALES)('navbar search ($code)', (locale) => {
  const home = `${BASE_PATH}${locale.prefix}`;
  const chapterPath = `${BASE_PATH}${locale.prefix}hello-world/`;

  it("loads the index when the box is first focused, once, and the texts of the shown results' pages only, with hash queries", async () => {
    const { page, indexRequests, textRequests, problems } = await open(chapterPath);
    await page.waitForTimeout(300);
    expect(indexRequests).toEqual([]);
    expect(textRequests).toEqual([]);
    await input(page).focus();
    await input(page).fill(locale.query);
    await expect.poll(() => results(page).count()).toBeGreaterThan(0);
    // The pages whose texts the shown results need, by the engine the browser runs.
    const shownPages = [
      ...new Set(
        loadEngine(builtSiteDir(), locale.language)
          .search(locale.query, { limit: 8 })
          .map((hit) => hit.doc.g),
      ),
    ].sort((a, b) => a - b);
    const requestedPages = () =>
      [
        ...new Set(textRequests.map((url) => Number(/\/search-text\/(\d+)\.json/.exec(new URL(url).pathname)?.[1]))),
      ].sort((a, b) => a - b);
    await expect.poll(requestedPages).toEqual(shownPages);
    await input(page).fill('');
    await input(page).blur();
    await input(page).focus();
    await input(page).fill(locale.query);
    await expect.poll(() => results(page).count()).toBeGreaterThan(0);
    expect(indexRequests).toHaveLength(1);
    const url = new URL(indexRequests[0]);
    expect(url.pathname).toBe(locale.indexPath);
    expect(url.searchParams.get('_')).toMatch(/^[0-9a-f]{10}$/);
    // Each page's texts are fetched once, even when the same results come back.
    expect(textRequests).toHaveLength(shownPages.length);
    for (const request of textRequests) {
      const textUrl = new URL(request);
      expect(textUrl.origin).toBe(url.origin);
      expect(textUrl.pathname).toMatch(
        new RegExp(`^${locale.indexPath.replace('search-index.json', 'search-text/')}\\d+\\.json$`),
      );
      expect(textUrl.searchParams.get('_')).toMatch(/^[0-9a-f]{10}$/);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows results before the page's text file arrives, then a highlighted snippet around a match deep in a section", async () => {
    // A result of the query whose match lies far into its section: the index's short opening
    // cannot show it, only the full text can.
    const engine = loadEngine(builtSiteDir(), locale.language);
    const texts = loadTexts(builtSiteDir(), locale.language);
    const tokens = engine.queryTokens(locale.deepQuery);
    const deep = engine.search(locale.deepQuery, { limit: 8 }).find(({ doc }) => {
      const inText = findMatches(texts[doc.i], tokens);
      return (
        findMatches(`${doc.t} ${doc.s ?? ''} ${doc.x}`, tokens).length === 0 && inText.length > 0 && inText[0][0] > 150
      );
    });
    expect(deep, `no result of ${locale.deepQuery} matches only deep in its text`).toBeDefined();
    const { doc } = deep!;

    const { page, problems } = await open(chapterPath);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/search-text/**', async (route) => {
      await held;
      await route.continue();
    });
    await input(page).focus();
    await input(page).fill(locale.deepQuery);
    await expect.poll(() => results(page).count()).toBeGreaterThan(0);
    const snippetOf = async () =>
      page.locator('.search-dropdown .search-result').evaluateAll(
        (items, target) => {
          const item = items.find((li) => {
            const a = li.querySelector('a')!;
            return a.pathname === target.u && a.hash === target.h;
          });
          const snippet = item?.querySelector('.search-result-snippet');
          return snippet
            ? {
                text: snippet.textContent ?? '',
                marks: [...snippet.querySelectorAll('mark.search-match')].map((m) => m.textContent ?? ''),
              }
            : undefined;
        },
        { u: doc.u, h: doc.h ?? '' },
      );
    // First paint: the result is listed with the index's opening, nothing marked in it.
    const early = await snippetOf();
    expect(early).toBeDefined();
    expect(early!.marks).toEqual([]);

    release();
    await expect.poll(async () => (await snippetOf())?.marks.length ?? 0).toBeGreaterThan(0);
    const upgraded = (await snippetOf())!;
    expect([...upgraded.text].length).toBeLessThanOrEqual(50);
    for (const mark of upgraded.marks) expect(findMatches(mark, tokens)).toEqual([[0, mark.length]]);
    // The snippet is a piece of the section's own text, cut around the deep match.
    const inner = upgraded.text.replace(/^…|…$/g, '');
    const at = texts[doc.i].indexOf(inner);
    expect(at).toBeGreaterThan(100);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('loads the index when the box is hovered', async () => {
    const { page, indexRequests } = await open(home);
    await page.waitForTimeout(200);
    expect(indexRequests).toEqual([]);
    await page.hover('.navbar-search');
    await expect.poll(() => indexRequests.length, { timeout: 30_000 }).toBe(1);
    await page.close();
  });

  it('focuses with Ctrl+K, shows the hint, and the clear button empties the box', async () => {
    const { page } = await open(chapterPath);
    await expect.poll(() => page.locator('.navbar-search-hint').textContent()).toBe('Ctrl K');
    await page.locator('body').click();
    await page.keyboard.press('Control+k');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('navbar-search-input');
    await page.keyboard.type(locale.query);
    await expect(page.locator('.navbar-search-hint').count()).resolves.toBe(0);
    await page.click('.navbar-search-clear');
    expect(await input(page).inputValue()).toBe('');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('navbar-search-input');
    await expect.poll(() => page.locator('.navbar-search-hint').count()).toBe(1);
    await page.close();
  });

  it('shows at most 8 results with title, section and a highlighted snippet of at most 50 characters', async () => {
    const { page } = await open(chapterPath);
    await input(page).focus();
    await input(page).fill(locale.query);
    await expect.poll(() => results(page).count()).toBe(8);
    const first = results(page).first();
    expect(await first.getAttribute('aria-selected')).toBe('true');
    expect(await first.getAttribute('href')).toContain(`/${locale.chapter}/`);
    const snippets = await page.locator('.search-dropdown .search-result-snippet').allTextContents();
    for (const snippet of snippets) expect([...snippet].length).toBeLessThanOrEqual(50);
    expect(await page.locator('.search-dropdown .search-result-snippet mark.search-match').count()).toBeGreaterThan(0);
    expect(await page.locator('.search-dropdown .search-result-section').count()).toBeGreaterThan(0);
    await page.close();
  });

  it('moves with the arrow keys and opens the selected result with Enter, highlighting it on the target', async () => {
    const { page, problems } = await open(chapterPath);
    await input(page).focus();
    await input(page).fill(locale.query);
    await expect.poll(() => results(page).count()).toBeGreaterThan(2);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    expect(await results(page).nth(1).getAttribute('aria-selected')).toBe('true');
    const href = (await results(page).nth(1).getAttribute('href'))!;
    await page.keyboard.press('Enter');
    const target = new URL(href, page.url());
    expect(target.searchParams.get('highlight')).toBeTruthy();
    await page.waitForURL((url) => url.href === target.href);
    // The target loads the search module before it marks anything: slow on a busy machine.
    await expect
      .poll(() => page.locator('#main-content .markdown mark.search-highlight').count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    const remove = page.locator('.search-highlight-remove');
    expect(await remove.textContent()).toBe(locale.remove);
    await remove.click();
    expect(await page.locator('mark.search-highlight').count()).toBe(0);
    expect(await remove.count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('highlight')).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("says 'No results' and 'See all results' opens the search page", async () => {
    const { page } = await open(chapterPath);
    await input(page).focus();
    await input(page).fill('qqqzzzxxyy');
    await expect.poll(() => page.locator('.search-no-results').textContent()).toBe(locale.noResults);
    await input(page).fill(locale.query);
    await expect.poll(() => results(page).count()).toBeGreaterThan(0);
    const seeAll = page.locator('.search-see-all');
    expect(await seeAll.textContent()).toBe(locale.seeAll);
    await seeAll.click();
    await page.waitForURL((url) => url.pathname === `${home}search/`);
    expect(new URL(page.url()).searchParams.get('q')).toBe(locale.query);
    await expect.poll(() => page.locator('.search-page-result').count()).toBeGreaterThan(8);
    await page.close();
  });
});

describe('on macOS', () => {
  it('shows the Cmd+K hint and focuses with Cmd+K', async () => {
    const mac = await newContext(browser);
    await mac.addInitScript(() => Object.defineProperty(Navigator.prototype, 'platform', { get: () => 'MacIntel' }));
    const page = await mac.newPage();
    await page.goto(new URL(`${BASE_PATH}hello-world/`, server.url).href);
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'));
    await expect.poll(() => page.locator('.navbar-search-hint').textContent()).toBe('⌘ K');
    await page.keyboard.press('Meta+k');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('navbar-search-input');
    await mac.close();
  });
});

describe.each(LOCALES)('search page ($code)', (locale) => {
  const searchPath = `${BASE_PATH}${locale.prefix}search/`;

  it('lists every result, follows typing in the address and keeps ctx and version', async () => {
    const { page, problems } = await open(`${searchPath}?q=${encodeURIComponent(locale.query)}&ctx=&version=current`);
    await expect.poll(() => page.locator('.search-page-result').count()).toBeGreaterThan(8);
    expect(await page.locator('.search-page-result .search-result-snippet mark').count()).toBeGreaterThan(0);
    const pageInput = page.locator('.search-page-input');
    await pageInput.fill('qqqzzzxxyy');
    await expect.poll(() => page.locator('.search-page-empty').textContent()).toBe(locale.noDocs);
    const url = new URL(page.url());
    expect(url.searchParams.get('q')).toBe('qqqzzzxxyy');
    expect(url.searchParams.get('version')).toBe('current');
    expect(url.searchParams.has('ctx')).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('fetches the texts of the results near the viewport only, and more as the reader scrolls', async () => {
    const { page, textRequests, problems } = await open(`${searchPath}?q=${encodeURIComponent(locale.query)}`);
    const hits = loadEngine(builtSiteDir(), locale.language).search(locale.query);
    const allPages = new Set(hits.map((hit) => hit.doc.g));
    expect(allPages.size).toBeGreaterThan(20);
    const requestedPages = () =>
      new Set(textRequests.map((url) => Number(/\/search-text\/(\d+)\.json/.exec(new URL(url).pathname)?.[1])));
    await expect.poll(() => page.locator('.search-page-result').count(), { timeout: 20_000 }).toBe(hits.length);
    // The first result's page comes first; the list's tail, far below the viewport, waits.
    await expect.poll(() => requestedPages().has(hits[0].doc.g), { timeout: 20_000 }).toBe(true);
    await page.waitForLoadState('networkidle');
    // The list shows the results grouped by page: the last group's page is far below the viewport.
    const shown = inGroupOrder(groupByPage(hits));
    const headPages = new Set(shown.slice(0, 40).map((hit) => hit.doc.g));
    const tail = [...shown].reverse().find((hit) => !headPages.has(hit.doc.g));
    expect(tail, 'no page only the tail of the list comes from').toBeDefined();
    expect(requestedPages().size).toBeLessThan(allPages.size);
    expect(requestedPages().has(tail!.doc.g)).toBe(false);
    await page.locator(`.search-page-result[data-doc="${tail!.doc.i}"]`).scrollIntoViewIfNeeded();
    await expect.poll(() => requestedPages().has(tail!.doc.g), { timeout: 20_000 }).toBe(true);
    for (const requested of requestedPages()) expect(allPages.has(requested)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('restricts results to the ctx path', async () => {
    const { page } = await open(`${searchPath}?q=${encodeURIComponent(locale.query)}&ctx=${locale.chapter}`);
    await expect.poll(() => page.locator('.search-page-result').count()).toBeGreaterThan(0);
    const hrefs = await page
      .locator('.search-page-group a')
      .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).pathname));
    expect(hrefs.length).toBeGreaterThan(1);
    for (const href of hrefs) expect(href).toBe(`${BASE_PATH}${locale.prefix}${locale.chapter}/`);
    expect(await page.locator('.search-page-group').count()).toBe(1);
    await page.close();
  });
});

describe.each(LOCALES)('results grouped by page ($code)', (locale) => {
  const chapters = () => loadEngine(builtSiteDir(), locale.language).documents.filter((doc) => !doc.s).length;

  it("the navbar lists each page once, its sections under it, in the engine's order", async () => {
    const { page, problems } = await open(`${BASE_PATH}${locale.prefix}hello-world/`);
    await input(page).focus();
    await input(page).fill(locale.query);
    await expect.poll(() => results(page).count()).toBe(8);
    const expected = groupByPage(loadEngine(builtSiteDir(), locale.language).search(locale.query, { limit: 8 }));
    const shown = await page.locator('.search-dropdown [role="group"]').evaluateAll((groups) =>
      groups.map((group) => {
        const label = document.getElementById(group.getAttribute('aria-labelledby') ?? '');
        return {
          role: group.getAttribute('role'),
          label: label?.textContent ?? '',
          links: [...group.querySelectorAll('[role="option"]')].map((a) => ({
            path: (a as HTMLAnchorElement).pathname,
            hash: (a as HTMLAnchorElement).hash,
          })),
        };
      }),
    );
    expect(shown).toEqual(
      expected.map((group) => ({
        role: 'group',
        label: group.title,
        links: [...(group.own ? [group.own] : []), ...group.sections].map((hit) => ({
          path: hit.doc.u,
          hash: hit.doc.h ?? '',
        })),
      })),
    );
    // Some page is there for its sections alone, and some page holds several.
    expect(expected.some((group) => group.sections.length > 1)).toBe(true);
    // The arrow keys walk the options in the order they are shown.
    await page.keyboard.press('ArrowDown');
    const second = shown.flatMap((group) => group.links)[1];
    expect(await results(page).nth(1).getAttribute('aria-selected')).toBe('true');
    expect(new URL((await results(page).nth(1).getAttribute('href'))!, page.url()).pathname).toBe(second.path);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the search page counts the pages found, not their sections, and lists each page with its sections', async () => {
    const { page, problems } = await open(`${BASE_PATH}${locale.prefix}search/?q=${encodeURIComponent(locale.query)}`);
    const hits = loadEngine(builtSiteDir(), locale.language).search(locale.query);
    const groups = groupByPage(hits);
    await expect.poll(() => page.locator('.search-page-group').count(), { timeout: 20_000 }).toBe(groups.length);
    expect(hits.length).toBeGreaterThan(groups.length);
    expect(groups.length).toBeLessThanOrEqual(chapters());
    expect(await page.locator('.search-page-count').textContent()).toBe(locale.count(groups.length));
    const listed = await page.locator('.search-page-group').evaluateAll((items) =>
      items.map((item) => ({
        title: item.querySelector('h3')?.textContent ?? '',
        page: item.querySelector<HTMLAnchorElement>('h3 a')?.pathname,
        sections: [...item.querySelectorAll<HTMLAnchorElement>('.search-page-sections h4 a')].map((a) => a.pathname),
      })),
    );
    expect(listed.map((group) => group.title)).toEqual(groups.map((group) => group.title));
    for (const group of listed) for (const section of group.sections) expect(section).toBe(group.page);
    expect(listed.map((group) => group.sections.length)).toEqual(groups.map((group) => group.sections.length));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('counts one page as one, and says so in the singular', async () => {
    const { page } = await open(
      `${BASE_PATH}${locale.prefix}search/?q=${encodeURIComponent(locale.query)}&ctx=${locale.chapter}`,
    );
    await expect.poll(() => page.locator('.search-page-group').count(), { timeout: 20_000 }).toBe(1);
    expect(await page.locator('.search-page-result').count()).toBeGreaterThan(1);
    expect(await page.locator('.search-page-count').textContent()).toBe(locale.count(1));
    await page.close();
  });

  it('finds JavaScript operators and marks them in the snippets', async () => {
    const { page, problems } = await open(`${BASE_PATH}${locale.prefix}search/?q=${encodeURIComponent('?.')}`);
    await expect.poll(() => page.locator('.search-page-group').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await page.locator('.search-page-group h3 a').first().getAttribute('href')).toContain('/dictionary/');
    await expect
      .poll(
        async () => (await page.locator('.search-page-result mark.search-match').allTextContents()).includes('?.'),
        {
          timeout: 20_000,
        },
      )
      .toBe(true);
    for (const mark of await page.locator('.search-page-result mark.search-match').allTextContents())
      expect(mark).toBe('?.');
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('choosing a result', () => {
  it('empties the box and carries the words the reader typed to the target page', async () => {
    const { page } = await open(`${BASE_PATH}set/`);
    await page.locator('#navbar-search-input').fill('dictionaries');
    await results(page).first().waitFor({ timeout: 20_000 });
    await results(page).first().click();
    await page.waitForURL(/highlight=dictionaries/);
    expect(new URL(page.url()).searchParams.get('highlight')).toBe('dictionaries');
    expect(await page.locator('#navbar-search-input').inputValue()).toBe('');
    await expect.poll(() => page.locator('mark.search-highlight').count()).toBeGreaterThan(0);
    await page.close();
  });
});

describe('typing in the navbar box', () => {
  it('leaves the page where the reader is (1440, 1280, 1000 and 390 px), and a result on that page opens below the navbar', async () => {
    for (const width of [1440, 1280, 1000, 390]) {
      const { page, problems } = await open(`${BASE_PATH}dictionary/`);
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(() => scrollTo({ top: 3000, behavior: 'instant' }));
      // Upwards a little: a navbar that hides while scrolling down shows again.
      await page.evaluate(() => scrollBy({ top: -50, behavior: 'instant' }));
      await page.waitForFunction(() => !document.querySelector('.navbar-hidden'));
      // What the reader reads: the block in the middle of the screen, and where it is on the screen
      // (the browser may move scrollY to keep it there as blocks lower down are laid out).
      const onScreen = () =>
        page.evaluate(() => {
          const w = window as Window & { readBlock?: Element };
          w.readBlock ??= document.elementFromPoint(innerWidth / 2, innerHeight / 2)!;
          return Math.round(w.readBlock.getBoundingClientRect().top);
        });
      // The examples the scroll brought near the viewport are laid out in the frames after it
      // (content-visibility): the place is taken once it has held still from one frame to the next.
      await expect
        .poll(
          async () => {
            const seen = await onScreen();
            await nextFrames(page);
            return (await onScreen()) === seen;
          },
          { timeout: 20_000 },
        )
        .toBe(true);
      const before = await onScreen();
      // Ctrl+K focuses the box without scrolling; a click could miss it, were a late layout shift to
      // hide the sticky navbar between measuring the box and clicking it.
      await page.keyboard.press('Control+k');
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 20_000 })
        .toBe('navbar-search-input');
      await page.keyboard.type('merging', { delay: 20 });
      await expect.poll(() => results(page).count(), { message: `${width} px`, timeout: 20_000 }).toBeGreaterThan(0);
      expect(await onScreen(), `${width} px`).toBe(before);
      // Enter on a result in this chapter: its heading ends below the navbar, not under it.
      const index = await results(page).evaluateAll((links) =>
        links.findIndex((a) => /\/dictionary\/[^#]*#merging/.test(a.getAttribute('href') ?? '')),
      );
      expect(index, 'a result in this chapter').toBeGreaterThanOrEqual(0);
      for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.waitForURL(/#merging/);
      const id = new URL(page.url()).hash.slice(1);
      await expect
        .poll(
          () =>
            page.evaluate((heading) => {
              const navbar = document.querySelector('.navbar')!.getBoundingClientRect().bottom;
              const top = document.getElementById(heading)!.getBoundingClientRect().top;
              return top >= navbar && top < navbar + 80;
            }, id),
          { timeout: 20_000 },
        )
        .toBe(true);
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});

describe('highlighting on the target page', () => {
  it('does nothing without a highlight parameter and highlights the given tokens', async () => {
    const { page } = await open(`${BASE_PATH}dictionary/`);
    await page.waitForTimeout(200);
    expect(await page.locator('mark.search-highlight').count()).toBe(0);
    await page.goto(new URL(`${BASE_PATH}dictionary/?highlight=dictionaries`, server.url).href);
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'));
    await expect.poll(() => page.locator('mark.search-highlight').count()).toBeGreaterThan(3);
    const marked = await page.locator('mark.search-highlight').allTextContents();
    for (const text of marked) expect(text.toLowerCase()).toMatch(/^dictionar/);
    await page.close();
  });
});

describe('Chinese highlighting marks whole words', () => {
  const query = '列表推导式';
  /** Each mark with the two characters either side of it in the text. */
  const marksInContext = (page: Page, selector: string) =>
    page.locator(selector).evaluateAll((marks) =>
      marks.map((mark) => {
        const before = mark.previousSibling?.textContent ?? '';
        const after = mark.nextSibling?.textContent ?? '';
        return { before: before.slice(-2), text: mark.textContent ?? '', after: after.slice(0, 2) };
      }),
    );
  const insideExpression = (m: { before: string; text: string }) => m.text === '式' && m.before.endsWith('表达');

  it('on the target page: every 推导式 is marked, and never the 式 of 表达式', async () => {
    const { page, problems } = await open(
      `${BASE_PATH}zh-cn/comprehension-expressions/?highlight=${encodeURIComponent(query)}`,
    );
    const article = page.locator('#main-content .markdown');
    await expect.poll(() => page.locator('mark.search-highlight').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    const text = (await article.textContent()) ?? '';
    expect(text).toContain('表达式');
    // The query's words (列表, 推导, 式) are marked wherever they stand as words: each 推导式 of
    // the chapter (列表推导式, 字典推导式…), merged into one mark with its neighbours.
    const words = text.split('推导式').length - 1;
    expect(words).toBeGreaterThan(5);
    const marked = await marksInContext(page, '#main-content .markdown mark.search-highlight');
    expect(marked.filter((m) => m.text.includes('推导式')).length).toBe(words);
    expect(marked.filter(insideExpression)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("in the results' snippets: never the 式 of 表达式", async () => {
    const { page } = await open(`${BASE_PATH}zh-cn/search/?q=${encodeURIComponent(query)}`);
    await expect.poll(() => page.locator('.search-page-result').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    // The check means something only if some snippet shows 表达式.
    await expect
      .poll(async () =>
        (await page.locator('.search-page-result .search-result-snippet').allTextContents()).some((t) =>
          t.includes('表达式'),
        ),
      )
      .toBe(true);
    const marked = await marksInContext(page, '.search-page-result .search-result-snippet mark');
    expect(marked.length).toBeGreaterThan(0);
    expect(marked.filter(insideExpression)).toEqual([]);
    await page.close();
  });
});

describe('search never runs markup from a chapter', () => {
  let fixture: FixtureBook;
  let fixtureServer: RunningServer;
  let outDir: string;
  const payload = '<img src=x onerror="window.__xss=1">';

  beforeAll(async () => {
    const body = [
      `Careful with \`${payload}\` in prose, the word xssprobe is nearby.`,
      '',
      '## Probing the xssprobe heading',
      '',
      `Code span again: \`${payload}\` xssprobe.`,
      '',
      '```text',
      `${payload} xssprobe`,
      '```',
    ].join('\n');
    fixture = await createFixtureBook({
      chapters: {
        en: { probe: chapter(`Probe xssprobe`, body, { description: `xssprobe ${payload}` }) },
        'zh-cn': { probe: chapter('探针 xssprobe', body.replace('Careful with', '小心')) },
      },
    });
    outDir = await mkdtemp(path.join(os.tmpdir(), 'pybook-search-xss-'));
    const result = await new Builder({ configPath: fixture.configPath }).build();
    writeSiteAtomically(outDir, result.files, result.staticDirs);
    fixtureServer = await startStaticServer({
      dir: outDir,
      basePath: FIXTURE_BASE,
      port: 0,
      localeDirs: ['zh-cn'],
      log: () => {},
    });
  });
  afterAll(async () => {
    await fixtureServer?.close();
    await fixture?.remove();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it.each(['', 'zh-cn/'])(
    'shows the markup as text in the dropdown, the search page and the highlighted target (%s)',
    async (prefix) => {
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto(`${fixtureServer.url}${prefix}probe/`);
      await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'));
      await input(page).focus();
      await input(page).fill('xssprobe <img src=x onerror');
      await expect.poll(() => results(page).count()).toBeGreaterThan(0);
      expect(await page.locator('.search-dropdown').textContent()).toContain('<img src=x');
      expect(await page.locator('.search-dropdown img').count()).toBe(0);
      await page.goto(`${fixtureServer.url}${prefix}search/?q=${encodeURIComponent('xssprobe img onerror')}`);
      await expect.poll(() => page.locator('.search-page-result').count()).toBeGreaterThan(0);
      expect(await page.locator('.search-page-results img').count()).toBe(0);
      expect(await page.locator('.search-page-results').textContent()).toContain('<img');
      await page.locator('.search-page-group h3 a').first().click();
      await expect.poll(() => page.locator('mark.search-highlight').count()).toBeGreaterThan(0);
      expect(await page.locator('.markdown img').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      expect(problems.filter((p) => !p.includes('favicon'))).toEqual([]);
      await page.close();
    },
  );
});
