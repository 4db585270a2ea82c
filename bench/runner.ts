/**
 * The example runner in the page: how many examples a reader can run, how long the first and a
 * second Run take in Chromium (cold HTTP cache, fresh local server each time), and the bytes a
 * first Python run transfers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { loadBook } from '../src/book/load-book.js';
import { pageRoute } from '../src/book/routes.js';
import { loadConfig } from '../src/config/load-config.js';
import { compileChapter } from '../src/markdown/compile.js';
import {
  BROWSER_CHECK_FILE,
  exampleKey,
  isOfferedToRun,
  type BrowserCheckRecord,
} from '../src/runner/build/browser-check-file.js';
import { startStaticServer } from '../src/server/static-server.js';
import { launchChromium, newContext } from '../test/helpers/browser.js';
import { median } from './stats.js';

export interface RunnerFigures {
  /** Per locale and language: examples offered with Run, of those the check runs with python3/node. */
  share: Array<{ locale: string; lang: string; offered: number; runNatively: number; percent: number }>;
  python: RunTimes;
  javascript: RunTimes;
}

interface RunTimes {
  /** Click on Run until the first output is on screen, cold HTTP cache; each try with a new server and browser context. */
  firstRunMs: number[];
  /** A second Run of the same example, the runtime loaded. */
  secondRunMs: number[];
  /** Bytes on the wire (as served: brotli/gzip where the server compresses) from the first click to its output. */
  firstRunBytes: number;
}

/** Which examples a page offers to run, from the committed record (what the build reads). */
export function runnableShare(configPath: string): RunnerFigures['share'] {
  const config = loadConfig(configPath);
  const record = JSON.parse(
    readFileSync(path.resolve(config.rootDir, config.contentDir, BROWSER_CHECK_FILE), 'utf8'),
  ) as BrowserCheckRecord;
  const passed = new Set(record.passed);
  const book = loadBook(config);
  const share: RunnerFigures['share'] = [];
  for (const locale of book.locales) {
    const counts: Record<string, { offered: number; runNatively: number }> = {
      python: { offered: 0, runNatively: 0 },
      javascript: { offered: 0, runNatively: 0 },
    };
    for (const chapter of book.chapters[locale.code]) {
      if (chapter.fallback) continue;
      const compiled = compileChapter(chapter.source, chapter.file, {
        slug: chapter.slug,
        basePath: config.basePath,
        localePaths: [],
        routeFor: (s) => pageRoute(config.basePath, locale, s),
      });
      for (const example of compiled.examples) {
        const count = counts[example.lang];
        if (!count || example.norun !== undefined) continue;
        count.runNatively++;
        if (isOfferedToRun(example) && passed.has(exampleKey(example))) count.offered++;
      }
    }
    for (const [lang, c] of Object.entries(counts))
      share.push({ locale: locale.code, lang, ...c, percent: Math.round((1000 * c.offered) / c.runNatively) / 10 });
  }
  return share;
}

/** Response bytes on the wire (encoded body and headers) of every request the page and its workers make. */
function countBytes(page: Page): () => number {
  let total = 0;
  page.on('requestfinished', (request) => {
    void request.sizes().then(
      (sizes) => {
        total += sizes.responseBodySize + sizes.responseHeadersSize;
      },
      () => {},
    );
  });
  return () => total;
}

/**
 * Clicks Run in the page and resolves, in the page's own clock, when the run's output panel has
 * text and a frame with it has been produced: what the reader sees, without test-driver latency.
 */
function clickAndTimeFirstOutput(page: Page, blockIndex: number, lang: string): Promise<number> {
  return page.evaluate(
    ({ blockIndex, lang }) =>
      new Promise<number>((resolve) => {
        const block = document.querySelectorAll(`.markdown .code-block:has(.code-run[data-run-lang="${lang}"])`)[
          blockIndex
        ];
        const started = performance.now();
        const observer = new MutationObserver(() => {
          const run = block.querySelector('.code-run-output');
          if (!run || run.getAttribute('data-run') === null || !run.querySelector('.code-output-pre')?.textContent)
            return;
          observer.disconnect();
          requestAnimationFrame(() => resolve(performance.now() - started));
        });
        observer.observe(block, { subtree: true, childList: true, characterData: true });
        block.querySelector<HTMLButtonElement>('button[data-code-action=run]')!.click();
      }),
    { blockIndex, lang },
  );
}

async function timeRuns(
  siteDir: string,
  basePath: string,
  slug: string,
  lang: 'python' | 'javascript',
  tries: number,
): Promise<RunTimes> {
  const firstRunMs: number[] = [];
  const secondRunMs: number[] = [];
  let firstRunBytes = 0;
  const browser = await launchChromium();
  try {
    for (let i = 0; i < tries; i++) {
      // A new server (empty compression cache) and a new context (empty HTTP cache) each time.
      const server = await startStaticServer({ dir: siteDir, basePath, port: 0, localeDirs: ['zh-cn'], log: () => {} });
      const context = await newContext(browser);
      try {
        const page = await context.newPage();
        await page.goto(`http://127.0.0.1:${server.port}${basePath}${slug}/`);
        await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
        // Let the page settle (idle prefetching) so that only the run's own transfers are counted.
        await page.waitForLoadState('networkidle');
        const bytes = countBytes(page);
        const block = page.locator(`.markdown .code-block:has(.code-run[data-run-lang="${lang}"])`).first();
        firstRunMs.push(Math.round(await clickAndTimeFirstOutput(page, 0, lang)));
        // Everything the run needed was fetched before Python started.
        await block.locator('.code-run-output:not([data-verdict="pending"])').waitFor({ timeout: 120_000 });
        if (i === 0) firstRunBytes = bytes();
        // The output panel is emptied at the start of a run, so the observer waits for the new text.
        secondRunMs.push(Math.round(await clickAndTimeFirstOutput(page, 0, lang)));
        await block
          .locator('.code-run-output[data-run="2"]:not([data-verdict="pending"])')
          .waitFor({ timeout: 120_000 });
      } finally {
        await context.close();
        await server.close();
      }
    }
  } finally {
    await browser.close();
  }
  return { firstRunMs, secondRunMs, firstRunBytes };
}

export async function benchRunner(
  siteDir: string,
  basePath: string,
  configPath: string,
  tries = 3,
): Promise<RunnerFigures> {
  return {
    share: runnableShare(configPath),
    python: await timeRuns(siteDir, basePath, 'dictionary', 'python', tries),
    javascript: await timeRuns(siteDir, basePath, 'dictionary', 'javascript', tries),
  };
}

export const medianOf = (values: number[]) => (values.length ? median(values) : NaN);
