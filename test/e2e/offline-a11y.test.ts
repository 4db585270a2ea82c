/**
 * The "Read offline" menu's panel and the offline page under axe-core, in both languages and both
 * colour modes, at a desktop and a phone width. With OFFLINE_SCREENSHOTS=<folder>, it also
 * saves screenshots of the open panel (for looking at, not compared).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';
import { axeViolations } from './axe-support.js';
import { LONG, makeAvailableOffline, openOfflinePanel, waitForWorker } from './offline-support.js';

const site = useSiteUnderTest();

const SHOTS = process.env.OFFLINE_SCREENSHOTS;

describe('the offline panel and page under axe-core', () => {
  for (const prefix of ['', 'zh-cn/']) {
    const locale = prefix ? 'zh-cn' : 'en';
    for (const mode of ['light', 'dark'] as const) {
      it(
        `no violations with the panel open, saved and not, and on the offline page, in ${mode} mode (${locale})`,
        async () => {
          // bypassCSP: axe-core is injected as an inline script, which the page's own policy rightly refuses.
          const { context, page } = await openPage(site, {
            colorScheme: mode,
            reducedMotion: 'reduce',
            bypassCSP: true,
            serviceWorkers: 'allow',
            viewport: { width: 1440, height: 900 },
          });
          const found: string[] = [];
          const shot = async (name: string) => {
            if (SHOTS)
              await page.screenshot({
                path: path.join(SHOTS, `${name}-${locale}-${mode}-${page.viewportSize()!.width}.png`),
              });
          };
          await gotoHydrated(page, site.url(`${prefix}dictionary/`));
          await waitForWorker(page);
          let panel = await openOfflinePanel(page, locale);
          await panel.locator(`.offline-locale[data-locale="${locale}"] .offline-size`).waitFor();
          found.push(...(await axeViolations(page)).map((v) => `panel: ${v}`));
          await shot('panel');
          await makeAvailableOffline(panel, locale);
          found.push(...(await axeViolations(page)).map((v) => `panel, saved: ${v}`));
          await shot('panel-saved');
          // At a phone's width.
          await page.setViewportSize({ width: 390, height: 844 });
          await gotoHydrated(page, site.url(`${prefix}dictionary/`));
          panel = await openOfflinePanel(page, locale);
          await panel.locator(`.offline-locale[data-locale="${locale}"][data-state="saved"]`).waitFor();
          found.push(...(await axeViolations(page)).map((v) => `panel at 390 px: ${v}`));
          await shot('panel-saved');
          // The offline page: a page the device does not hold (the other language's).
          await context.setOffline(true);
          await page.goto(site.url(`${prefix ? '' : 'zh-cn/'}set/`));
          found.push(...(await axeViolations(page)).map((v) => `offline page: ${v}`));
          await shot('offline-page');
          expect(found).toEqual([]);
          await context.close();
        },
        LONG,
      );
    }
  }
});
