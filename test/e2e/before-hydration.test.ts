/**
 * The page before the app hydrates (src/client/boot.ts, before-hydration.ts): React and the app
 * load after the page is shown, so a reader can act on the static page first. Each test holds the
 * app's module (the chunk boot.ts imports to hydrate) until the reader has acted, then lets it
 * arrive, and checks that what they did worked at once or was kept until hydration, never dropped
 * or undone. Nothing waits a fixed time: each step waits for its condition.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { measureBeforeLoad } from '../../bench/before-load.js';
import { measurePageWeight } from '../../bench/page-weight.js';
import { builtSiteDir } from '../helpers/browser.js';
import { BASE_PATH, nextFrames, openPage, useSiteUnderTest, waitForHydration } from './client-support.js';

const site = useSiteUnderTest();

/**
 * The app's module: of the chunks the first-load script imports dynamically, the one whose static
 * imports hold React's hydrateRoot (bench/page-weight.ts finds it from the built files, not by name).
 */
function appModuleFile(): string {
  const [module] = measurePageWeight(builtSiteDir(), BASE_PATH, 'dictionary').app.files;
  if (!module) throw new Error('the built page imports no app module');
  return module;
}

/** Holds the app's module until `release()` is called (the page stays as the server sent it). */
async function holdApp(page: Page): Promise<{ requested: () => boolean; release: () => void }> {
  const file = appModuleFile();
  let requested = false;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${BASE_PATH}${file}`, async (route: Route) => {
    requested = true;
    await released;
    await route.continue();
  });
  return { requested: () => requested, release };
}

const hydrated = (page: Page) => page.evaluate(() => document.documentElement.hasAttribute('data-hydrated'));

describe('before the app hydrates', () => {
  // Astro Starlight's page of the same chapter, measured the same way (issue 44): 44.1 KB and 45.6 KB.
  it.each([
    ['dictionary/', 44_100],
    ['zh-cn/dictionary/', 45_600],
  ])(
    '%s transfers fewer bytes before load than Starlight (%i), no site data and no React among them',
    async (page, bound) => {
      const measured = await measureBeforeLoad(site.browser, site.url(page));
      expect(measured.bytes, JSON.stringify(measured.byType)).toBeLessThanOrEqual(bound);
      expect(measured.requests.filter((path) => /\/assets\/site\//.test(path))).toEqual([]);
      const app = measurePageWeight(builtSiteDir(), BASE_PATH, 'dictionary').app.files.map(
        (file) => `${BASE_PATH}${file}`,
      );
      expect(measured.requests.filter((path) => app.includes(path))).toEqual([]);
    },
  );

  it('loads the app only after the page is shown', async () => {
    const { context, page, problems } = await openPage(site);
    const app = await holdApp(page);
    let requestedBeforeLoad: boolean | undefined;
    page.on('load', () => (requestedBeforeLoad ??= app.requested()));
    await page.goto(site.url('dictionary/'), { waitUntil: 'load' });
    expect(requestedBeforeLoad).toBe(false);
    // Once loaded and idle, the app comes without any sign from the reader.
    await expect.poll(app.requested, { timeout: 15_000 }).toBe(true);
    expect(await hydrated(page)).toBe(false);
    app.release();
    await waitForHydration(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('follows a sidebar link clicked before hydration as an ordinary link', async () => {
    const { context, page, problems } = await openPage(site);
    const app = await holdApp(page);
    await page.goto(site.url('dictionary/'), { waitUntil: 'load' });
    const link = page.locator('.sidebar-nav a.sidebar-link[href$="/set/"]');
    await link.click();
    await page.waitForURL(site.url('set/'));
    await expect.poll(() => page.locator('h1').first().textContent()).toMatch(/set/i);
    app.release();
    await waitForHydration(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps a closed category, a typed search, a pressed button and the scroll position through hydration', async () => {
    const { context, page, problems } = await openPage(site);
    const app = await holdApp(page);
    await page.goto(site.url('dictionary/'), { waitUntil: 'load' });
    expect(await hydrated(page)).toBe(false);

    // A category of the sidebar closes natively (they all start open in this book).
    const categories = page.locator('.sidebar-nav details');
    const index = await categories.evaluateAll((all) => all.findIndex((d) => (d as HTMLDetailsElement).open));
    expect(index).toBeGreaterThanOrEqual(0);
    const closed = categories.nth(index);
    await closed.locator(':scope > summary').click();
    await expect.poll(() => closed.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);

    // The colour mode button is held, and pressed once the app is there.
    const before = await page.evaluate(() => document.documentElement.dataset.theme);
    await page.locator('.color-mode-toggle').click();

    // The page scrolled by the reader.
    await page.mouse.move(700, 500);
    await page.mouse.wheel(0, 900);
    await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(400);

    // Ctrl+K puts the keys in the search box; what is typed stays there.
    await page.keyboard.press('Control+k');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('navbar-search-input');
    await page.keyboard.type('comprehension');
    // Where the reader is when the app arrives (typing in the sticky bar's field may itself move
    // the page in Chromium, hydrated or not: that is not hydration's doing).
    await nextFrames(page);
    const scrolled = await page.evaluate(() => scrollY);

    expect(await hydrated(page)).toBe(false);
    app.release();
    await waitForHydration(page);

    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).not.toBe(before);
    expect(await page.inputValue('#navbar-search-input')).toBe('comprehension');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('navbar-search-input');
    // The app's search takes over the typed query: its results appear without another key.
    await page.locator('.search-dropdown a').first().waitFor({ timeout: 15_000 });
    expect(Math.abs((await page.evaluate(() => scrollY)) - scrolled)).toBeLessThanOrEqual(2);
    // The category the reader closed stays closed…
    expect(await closed.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    // … and is the app's now: it opens again on a click.
    await closed.locator(':scope > summary').click();
    await expect.poll(() => closed.evaluate((d: HTMLDetailsElement) => d.open)).toBe(true);
    // A pressed button counts once: the mode changed, and did not change back.
    const after = await page.evaluate(() => document.documentElement.dataset.theme);
    await nextFrames(page);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(after);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('runs an example whose Run was pressed before hydration', async () => {
    const { context, page, problems } = await openPage(site);
    const app = await holdApp(page);
    await page.goto(site.url('hello-world/'), { waitUntil: 'load' });
    expect(await hydrated(page)).toBe(false);
    const block = page
      .locator('.markdown .code-block:not([data-exercise="starter"]):has(.code-run[data-run-lang="python"])')
      .first();
    await block.locator('button[data-code-action=run]').click();
    // The run does not wait for the app: the runner loads on its own (Pyodide: allow for a busy machine).
    const panel = block.locator('.code-run-output[data-run="1"]:not([data-verdict="pending"])');
    await panel.waitFor({ timeout: 240_000 });
    expect(await panel.getAttribute('data-verdict')).toBe('matches');
    const output = block.locator('.code-run-output .code-output-pre');
    expect(await output.textContent()).toMatch(/\S/);
    expect(await hydrated(page)).toBe(false);
    app.release();
    await waitForHydration(page);
    // Hydration keeps the output where it was.
    expect(await output.isVisible()).toBe(true);
    expect(await output.textContent()).toMatch(/\S/);
    expect(problems).toEqual([]);
    await context.close();
  });
});
