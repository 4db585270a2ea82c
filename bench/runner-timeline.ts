/**
 * Where a Python run's time goes, in headless Chromium against a local server on a built site:
 * `node --import tsx bench/runner-timeline.ts <site> [tries]`.
 *
 * For each try (a new browser context, so an empty HTTP cache): a cold click on Run (no hover
 * first: the worst case), with the time to each step the page goes through (downloads done, the
 * sandbox's frame and runtime ready, the program running, first output) and the bytes on the
 * wire (CDP's encodedDataLength); a second run right after the first ended; a third once the
 * spare sandbox is ready (as a reader who reads the output first meets it); then the page
 * reloaded and run again (the HTTP cache of the next visit).
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { startStaticServer } from '../src/server/static-server.js';
import { BASE_PATH, launchChromium, newContext } from '../test/helpers/browser.js';
import { median } from './stats.js';

/** Recorded in the page: when each sandbox message arrived and when the status line changed. */
const RECORDER = () => {
  const log: Array<{ what: string; t: number }> = [];
  (window as unknown as { __timeline: typeof log }).__timeline = log;
  addEventListener('message', (event) => {
    const type = (event.data as { type?: unknown } | null)?.type;
    if (typeof type === 'string') log.push({ what: `message:${type}`, t: performance.now() });
  });
};

/** Bytes on the wire of the page's own requests (Pyodide's files are fetched by the page). */
async function wireBytes(
  context: BrowserContext,
  page: Page,
): Promise<{ session: CDPSession; take(): { bytes: number; requests: number } }> {
  const session = await context.newCDPSession(page);
  await session.send('Network.enable');
  let bytes = 0;
  let requests = 0;
  const urls = new Map<string, string>();
  const list: string[] = [];
  session.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url));
  session.on('Network.loadingFinished', (event) => {
    bytes += event.encodedDataLength;
    requests++;
    list.push(
      `${(event.encodedDataLength / 1e3).toFixed(1)} kB ${urls.get(event.requestId)?.replace(/^.*\/python-guide-for-javascript-engineers\//, '')}`,
    );
  });
  return {
    session,
    take: () => {
      const r = { bytes, requests };
      if (process.env.LIST_REQUESTS) console.log(list.join('\n'));
      bytes = 0;
      requests = 0;
      list.length = 0;
      return r;
    },
  };
}

/** Clicks Run on the first Python block (in the page, no pointer move) and resolves with the steps' times from the click, once output shows. */
function runOnce(page: Page): Promise<Record<string, number>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, number>>((resolve) => {
        const block = document.querySelectorAll(
          '.markdown .code-block:not([data-exercise="starter"]):has(.code-run[data-run-lang="python"])',
        )[0];
        const log = (window as unknown as { __timeline: Array<{ what: string; t: number }> }).__timeline;
        const from = log.length;
        const status = block.querySelector('.code-run-status')!;
        const steps: Record<string, number> = {};
        let last = '';
        const started = performance.now();
        const statusWatch = new MutationObserver(() => {
          const text = status.textContent ?? '';
          let key = `status:${text.replace(/[\d.]+/g, '#').slice(0, 24)}`;
          if (key === last) return;
          last = key;
          while (key in steps) key += "'";
          steps[key] = performance.now() - started;
        });
        statusWatch.observe(status, { subtree: true, childList: true, characterData: true });
        const observer = new MutationObserver(() => {
          const run = block.querySelector('.code-run-output');
          if (!run || !run.querySelector('.code-output-pre')?.textContent) return;
          observer.disconnect();
          requestAnimationFrame(() => {
            steps.output = performance.now() - started;
            statusWatch.disconnect();
            for (const { what, t } of log.slice(from)) if (t >= started) steps[what] ??= t - started;
            resolve(steps);
          });
        });
        observer.observe(block, { subtree: true, childList: true, characterData: true });
        block.querySelector<HTMLButtonElement>('button[data-code-action=run]')!.click();
      }),
  );
}

const ended = (page: Page, run: number) =>
  page
    .locator(
      `.markdown .code-block:not([data-exercise="starter"]):has(.code-run[data-run-lang="python"]) .code-run-output[data-run="${run}"]:not([data-verdict="pending"])`,
    )
    .first()
    .waitFor({ timeout: 300_000 });

/** Waits until the page has heard as many sandboxes say 'ready' as `count`. */
const readyCount = (page: Page, count: number) =>
  page.waitForFunction(
    (n) =>
      (window as unknown as { __timeline: Array<{ what: string }> }).__timeline.filter(
        (e) => e.what === 'message:ready',
      ).length >= n,
    count,
    { timeout: 300_000 },
  );

async function main(): Promise<void> {
  const [siteDir, triesText = '3'] = process.argv.slice(2);
  if (!siteDir) throw new Error('usage: bench/runner-timeline.ts <site folder> [tries]');
  const browser = await launchChromium();
  const figures: Record<string, number[]> = {};
  const add = (name: string, value: number) => (figures[name] ??= []).push(Math.round(value));
  try {
    for (let i = 0; i < Number(triesText); i++) {
      const server = await startStaticServer({
        dir: siteDir,
        basePath: BASE_PATH,
        port: 0,
        localeDirs: ['zh-cn'],
        log: () => {},
      });
      const context = await newContext(browser);
      try {
        await context.addInitScript(RECORDER);
        const page = await context.newPage();
        const wire = await wireBytes(context, page);
        await page.goto(`http://127.0.0.1:${server.port}${BASE_PATH}dictionary/`);
        await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
        await page.waitForLoadState('networkidle');
        wire.take();
        const first = await runOnce(page);
        await ended(page, 1);
        const bytes = wire.take();
        for (const [k, v] of Object.entries(first)) add(`cold first run: ${k}`, v);
        add('cold first run: MB on the wire', bytes.bytes / 1e4);
        console.log(
          `try ${i + 1}: first run`,
          first,
          `${(bytes.bytes / 1e6).toFixed(2)} MB in ${bytes.requests} requests`,
        );
        // Right after the first run ended: the spare may still be starting.
        const second = await runOnce(page);
        await ended(page, 2);
        add('second run, right after: output', second.output);
        // Once a spare is ready again (3 sandboxes have said ready: the first run's, the second's, the spare).
        await readyCount(page, 3);
        const third = await runOnce(page);
        await ended(page, 3);
        add('second run, spare ready: output', third.output);
        console.log(`try ${i + 1}: right after`, second.output, 'ms; spare ready', third.output, 'ms');
        // The next visit: the same context (its HTTP cache), the page loaded again.
        await page.reload();
        await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
        await page.waitForLoadState('networkidle');
        wire.take();
        const warm = await runOnce(page);
        await ended(page, 1);
        const warmBytes = wire.take();
        add('next visit first run: output', warm.output);
        add('next visit first run: MB on the wire', warmBytes.bytes / 1e4);
        console.log(
          `try ${i + 1}: next visit`,
          warm,
          `${(warmBytes.bytes / 1e6).toFixed(3)} MB in ${warmBytes.requests} requests`,
        );
        await wire.session.detach();
      } finally {
        await context.close();
        await server.close();
      }
    }
  } finally {
    await browser.close();
  }
  console.log('\nmedians (ms; "MB" rows in hundredths of a MB):');
  for (const [name, values] of Object.entries(figures))
    console.log(`  ${name}: ${median(values)} [${values.join(', ')}]`);
}

await main();
