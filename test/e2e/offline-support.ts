/** What the offline tests share (test/e2e/offline*.test.ts). */
import type { Locator, Page } from 'playwright-core';

/** A cold Pyodide start on a busy machine can take minutes: the waits are for conditions, this bounds them. */
export const LONG = 300_000;

/** Waits until the book's service worker controls the page (it registers once the page is idle). */
export async function waitForWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
}

/** Every URL the book's caches hold (the page's own view of them: same origin). */
export function storedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    return urls;
  });
}

/** Opens the navbar's "Read offline" menu and waits for its panel to know the page's language. */
export async function openOfflinePanel(page: Page, locale: string): Promise<Locator> {
  const menu = page.locator('.offline-menu');
  if (!(await menu.evaluate((details) => (details as HTMLDetailsElement).open))) await menu.locator('summary').click();
  await menu.locator(`.offline-panel .offline-locale[data-locale="${locale}"]`).waitFor({ timeout: 60_000 });
  return menu.locator('.offline-panel');
}

/** Clicks a language's "Make available offline" and waits until the panel says it is saved. */
export async function makeAvailableOffline(panel: Locator, locale: string): Promise<void> {
  const row = panel.locator(`.offline-locale[data-locale="${locale}"]`);
  await row.locator('button.button-primary').click();
  await panel.locator(`.offline-locale[data-locale="${locale}"][data-state="saved"]`).waitFor({ timeout: LONG });
}
