/**
 * The share of comparison code and output blocks whose content is clipped (would need a
 * horizontal scrollbar) on every chapter of both languages at 1440, 1280, 1000 and 390 px, in
 * headless Chromium. Blocks with a line over 90 columns are counted apart (the style guide
 * forbids them). Target: 0 clipped at every width.
 */
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/helpers/browser.js';
import { startStaticServer } from '../src/server/static-server.js';

export interface ComparisonFigures {
  chapters: number;
  perWidth: Array<{ width: number; blocks: number; clipped: number; overlong: number; examples: string[] }>;
}

export const COMPARISON_WIDTHS = [1440, 1280, 1000, 390];

/** Each comparison code or output block of the open page: clipped (would need a scrollbar), or with a line over 90 columns. */
export function comparisonBlocks(page: Page): Promise<Array<{ overlong: boolean; clipped: boolean; text: string }>> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.compare pre')].map((pre) => ({
      overlong: Math.max(...(pre.textContent ?? '').split('\n').map((line) => line.length)) > 90,
      clipped: pre.scrollWidth > pre.clientWidth + 1,
      text: (pre.textContent ?? '').slice(0, 40),
    })),
  );
}

export async function measureClippedComparisons(
  siteDir: string,
  basePath: string,
  routes: string[],
): Promise<ComparisonFigures> {
  const server = await startStaticServer({ dir: siteDir, basePath, port: 0, localeDirs: ['zh-cn'], log: () => {} });
  const browser = await launchChromium();
  try {
    const perWidth: ComparisonFigures['perWidth'] = [];
    for (const width of COMPARISON_WIDTHS) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const figures = { width, blocks: 0, clipped: 0, overlong: 0, examples: [] as string[] };
      for (const route of routes) {
        await page.goto(server.url + route);
        const found = await comparisonBlocks(page);
        for (const block of found) {
          figures.blocks += 1;
          if (block.overlong) figures.overlong += 1;
          else if (block.clipped) {
            figures.clipped += 1;
            if (figures.examples.length < 5) figures.examples.push(`${route}: ${block.text}`);
          }
        }
      }
      perWidth.push(figures);
      await page.close();
    }
    return { chapters: routes.length, perWidth };
  } finally {
    await browser.close();
    await server.close();
  }
}
