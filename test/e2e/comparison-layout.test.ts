import { describe, expect, it } from 'vitest';
import { comparisonLayout, type ComparisonLayout } from '../../bench/comparison-layout.js';
import { openPage, useSiteUnderTest } from './client-support.js';

const site = useSiteUnderTest();

/** Chapters with many comparisons, narrow and wide (the whole book is measured by bench/comparison-layout.ts). */
const CHAPTERS = ['dictionary/', 'lists-and-tuples/', 'async-and-await/', 'set/', 'math-module/'];
/** Each test opens ten pages on a machine shared with other builds. */
const SLOW = 300_000;

async function layoutAt(width: number): Promise<ComparisonLayout> {
  const { context, page } = await openPage(site, { viewport: { width, height: 900 } });
  context.setDefaultTimeout(60_000);
  const total: ComparisonLayout = { comparisons: 0, sideBySide: 0, wrappedLines: 0, clippedBlocks: 0, stacked: [] };
  for (const prefix of ['', 'zh-cn/']) {
    for (const chapter of CHAPTERS) {
      await page.goto(site.url(prefix + chapter));
      const found = await comparisonLayout(page);
      for (const key of ['comparisons', 'sideBySide', 'wrappedLines', 'clippedBlocks'] as const)
        total[key] += found[key];
    }
  }
  await context.close();
  return total;
}

describe('comparisons on desktops', () => {
  it(
    'at 1440 px at least 80% stand side by side, tops aligned, and no comparison line wraps or is clipped (en, zh-cn)',
    async () => {
      const layout = await layoutAt(1440);
      expect(layout.comparisons).toBeGreaterThan(40);
      expect(layout.sideBySide / layout.comparisons).toBeGreaterThanOrEqual(0.8);
      expect(layout.wrappedLines).toBe(0);
      expect(layout.clippedBlocks).toBe(0);
    },
    SLOW,
  );

  it(
    'at 1280 px at least 80% still stand side by side, none clipped (en, zh-cn)',
    async () => {
      const layout = await layoutAt(1280);
      expect(layout.sideBySide / layout.comparisons).toBeGreaterThanOrEqual(0.8);
      expect(layout.clippedBlocks).toBe(0);
    },
    SLOW,
  );

  it(
    'keeps the prose at its reading width while a comparison takes the content width',
    async () => {
      const { context, page } = await openPage(site, { viewport: { width: 1440, height: 900 } });
      await page.goto(site.url('dictionary/'), { timeout: 60_000 });
      const widths = await page.evaluate(() => ({
        prose: document.querySelector('.markdown > p')!.getBoundingClientRect().width,
        proseMax: parseFloat(getComputedStyle(document.querySelector('.markdown > p')!).maxWidth),
        compare: document.querySelector('.markdown > .compare')!.getBoundingClientRect().width,
        content: document.querySelector('.main-content')!.getBoundingClientRect().width,
      }));
      expect(widths.prose).toBeCloseTo(widths.proseMax, 1);
      expect(widths.compare).toBeGreaterThan(widths.prose + 250);
      expect(widths.compare).toBe(widths.content);
      expect(widths.compare).toBeGreaterThan(1000);
      await context.close();
    },
    SLOW,
  );
});
