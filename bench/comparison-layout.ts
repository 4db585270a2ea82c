/**
 * How the book's comparisons are laid out at desktop and tablet widths, in headless Chromium:
 * the share of comparisons whose JavaScript and Python columns stand side by side (tops aligned),
 * and the comparison code lines that wrap or are clipped. `node --import tsx bench/comparison-layout.ts
 * <site> [route…]` prints the figures for every chapter of both languages (or the routes given).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, BASE_PATH } from '../test/helpers/browser.js';
import { startStaticServer } from '../src/server/static-server.js';

export const LAYOUT_WIDTHS = [1440, 1280, 1000];

export interface ComparisonLayout {
  comparisons: number;
  sideBySide: number;
  wrappedLines: number;
  clippedBlocks: number;
  stacked: string[];
}

/** The open page's comparisons: how many stand side by side, and how many of their code lines wrap or are clipped. */
export function comparisonLayout(page: Page): Promise<ComparisonLayout> {
  return page.evaluate(() => {
    const result = { comparisons: 0, sideBySide: 0, wrappedLines: 0, clippedBlocks: 0, stacked: [] as string[] };
    for (const compare of document.querySelectorAll<HTMLElement>('.compare')) {
      const columns = [...compare.querySelectorAll<HTMLElement>(':scope > .compare-grid > .compare-column')];
      if (columns.length < 2) continue;
      result.comparisons += 1;
      const [first, second] = columns.map((column) => column.getBoundingClientRect());
      if (Math.abs(first.top - second.top) < 1 && second.left >= first.right) result.sideBySide += 1;
      else result.stacked.push(`${location.pathname.split('/').slice(-2, -1)[0]} ${compare.dataset.fit ?? ''}`);
      for (const pre of compare.querySelectorAll<HTMLElement>('pre.code-pre')) {
        if (pre.scrollWidth > pre.clientWidth + 1) result.clippedBlocks += 1;
        const lineHeight = parseFloat(getComputedStyle(pre).lineHeight);
        for (const line of pre.querySelectorAll<HTMLElement>('.code-line')) {
          if (line.getBoundingClientRect().height > lineHeight * 1.5) result.wrappedLines += 1;
        }
      }
    }
    return result;
  });
}

export async function measureComparisonLayout(
  siteDir: string,
  routes: string[],
  widths = LAYOUT_WIDTHS,
): Promise<Array<{ width: number } & ComparisonLayout>> {
  const server = await startStaticServer({
    dir: siteDir,
    basePath: BASE_PATH,
    port: 0,
    localeDirs: ['zh-cn'],
    log: () => {},
  });
  const browser = await launchChromium();
  try {
    const figures = [];
    for (const width of widths) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const total: ComparisonLayout = { comparisons: 0, sideBySide: 0, wrappedLines: 0, clippedBlocks: 0, stacked: [] };
      for (const route of routes) {
        await page.goto(server.url + route);
        const found = await comparisonLayout(page);
        total.comparisons += found.comparisons;
        total.sideBySide += found.sideBySide;
        total.wrappedLines += found.wrappedLines;
        total.clippedBlocks += found.clippedBlocks;
        total.stacked.push(...found.stacked);
      }
      figures.push({ width, ...total });
      await page.close();
    }
    return figures;
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [siteDir = 'build', ...given] = process.argv.slice(2);
  const slugs = readdirSync(path.join('book', 'en'))
    .filter((f) => f.endsWith('.mdx'))
    .map((f) => `${f.slice(0, -4)}/`);
  const routes = given.length ? given : [...slugs, ...slugs.map((slug) => `zh-cn/${slug}`)];
  for (const row of await measureComparisonLayout(siteDir, routes)) {
    const share = ((100 * row.sideBySide) / Math.max(1, row.comparisons)).toFixed(1);
    console.log(
      `${row.width} px: ${row.sideBySide}/${row.comparisons} side by side (${share}%), ${row.wrappedLines} wrapped lines, ${row.clippedBlocks} clipped blocks`,
    );
    if (process.env.VERBOSE) console.log(`  stacked: ${row.stacked.join(', ')}`);
  }
}
