import { describe, expect, it } from 'vitest';
import { startStaticServer } from '../../src/server/static-server.js';
import { builtSiteDir } from '../helpers/browser.js';
import { BASE_PATH, gotoHydrated, openPage, siteDataOf, useSiteUnderTest, waitForHydration } from './client-support.js';

const site = useSiteUnderTest();

/**
 * Keeps the server-rendered nodes as the parser made them, before any script runs. After
 * hydration they must still be the nodes in the document: a hydration mismatch makes React
 * throw the server HTML away and render it again on the client.
 */
const RECORD_SERVER_NODES = `
document.addEventListener('readystatechange', () => {
  if (document.readyState !== 'interactive') return;
  window.__serverNodes = ['.navbar', 'main', 'h1', '.footer', '.markdown'].map((s) => [s, document.querySelector(s)]);
});`;

async function expectHydratedInPlace(
  path: string,
  expectedStatus: number,
  title: RegExp,
  extraExpected: RegExp[] = [],
) {
  const { context, page, problems } = await openPage(site);
  await page.addInitScript(RECORD_SERVER_NODES);
  const response = await page.goto(site.url(path));
  expect(response?.status()).toBe(expectedStatus);
  await waitForHydration(page);
  // Effects that run after hydration settle in the next frames.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
  const replaced = await page.evaluate(() => {
    const recorded = (window as Window & { __serverNodes?: [string, Element | null][] }).__serverNodes ?? [];
    return recorded
      .filter(([selector, node]) => node !== document.querySelector(selector))
      .map(([selector]) => selector);
  });
  expect(replaced, 'server-rendered nodes replaced on hydration (mismatch)').toEqual([]);
  expect(await page.title()).toMatch(title);
  const unexpected = problems.filter((p) => !extraExpected.some((allowed) => allowed.test(p)));
  expect(unexpected).toEqual([]);
  await context.close();
}

const NOT_FOUND_DOCUMENT = /^error: Failed to load resource: the server responded with a status of 404/;

describe('hydration of every page type without mismatch or console problems', () => {
  it('landing page (en, zh-cn)', async () => {
    await expectHydratedInPlace('', 200, /^Python guide for JavaScript engineers/);
    await expectHydratedInPlace('zh-cn/', 200, /.+/);
  });

  it('chapter page (en, zh-cn)', async () => {
    await expectHydratedInPlace('dictionary/', 200, /^Dictionaries \| Python guide for JavaScript engineers$/);
    await expectHydratedInPlace('zh-cn/dictionary/', 200, /\|/);
  });

  it('search page (en, zh-cn)', async () => {
    await expectHydratedInPlace('search/', 200, /Search/);
    await expectHydratedInPlace('zh-cn/search/', 200, /搜索/);
  });

  it('404 for an unknown path (en, zh-cn); only the document 404 itself is logged', async () => {
    await expectHydratedInPlace('no-such-chapter/', 404, /^Page Not Found/, [NOT_FOUND_DOCUMENT]);
    await expectHydratedInPlace('zh-cn/no-such-chapter/', 404, /找不到页面/, [NOT_FOUND_DOCUMENT]);
  });
});

describe('URL normalisation', () => {
  it('index.html and .html paths show the clean path after load', async () => {
    const { context, page, problems } = await openPage(site);
    for (const [opened, clean] of [
      ['dictionary/index.html', `${BASE_PATH}dictionary/`],
      ['zh-cn/dictionary/index.html', `${BASE_PATH}zh-cn/dictionary/`],
      ['index.html', BASE_PATH],
      ['dictionary.html', `${BASE_PATH}dictionary/`],
    ]) {
      await gotoHydrated(page, site.url(`${opened}?x=1#summary`));
      expect(await page.evaluate(() => location.pathname)).toBe(clean);
      expect(await page.evaluate(() => location.search + location.hash)).toBe('?x=1#summary');
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('wrong base path', () => {
  it('shows a banner naming the configured base path instead of a blank page (en, zh-cn)', async () => {
    const wrong = await startStaticServer({
      dir: builtSiteDir(),
      basePath: '/wrong-base/',
      port: 0,
      localeDirs: ['zh-cn'],
      log: () => {},
    });
    try {
      const { context, page } = await openPage(site);
      for (const path of ['dictionary/', 'zh-cn/dictionary/']) {
        // The bundled scripts are addressed under the configured base path, so here they do not load:
        // the banner must come from the inline head script alone.
        await page.goto(`http://127.0.0.1:${wrong.port}/wrong-base/${path}`);
        const banner = page.locator('.base-url-warning');
        await banner.waitFor({ state: 'visible' });
        expect(await banner.textContent()).toContain(BASE_PATH);
        expect(await page.locator('h1').first().textContent()).toBeTruthy();
      }
      // With its scripts reachable (say, a CDN), the hydrated client keeps the banner up.
      await page.route(`http://127.0.0.1:${wrong.port}${BASE_PATH}assets/**`, async (route) => {
        const asset = new URL(route.request().url());
        await route.fulfill({ response: await route.fetch({ url: site.url(asset.pathname.slice(BASE_PATH.length)) }) });
      });
      await page.goto(`http://127.0.0.1:${wrong.port}/wrong-base/dictionary/`);
      await waitForHydration(page);
      expect(await page.locator('.base-url-warning').isVisible()).toBe(true);
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      // Under the right base path there is no banner.
      await gotoHydrated(page, site.url('dictionary/'));
      expect(await page.locator('.base-url-warning').isVisible()).toBe(false);
      await context.close();
    } finally {
      await wrong.close();
    }
  });
});

describe('docs version', () => {
  it('site data carries the current version and the choice is kept in localStorage', async () => {
    const { context, page } = await openPage(site);
    await gotoHydrated(page, site.url('dictionary/'));
    const version = (await siteDataOf(page)).version;
    expect(version).toMatchObject({ name: 'current', label: 'Next', mainDocId: 'index' });
    expect(await page.evaluate(() => localStorage.getItem('docs-preferred-version-default'))).toBe('current');
    await context.close();
  });
});
