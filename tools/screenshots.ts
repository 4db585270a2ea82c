/**
 * Screenshots of the built site as a reader sees it: each page at 1440, 1280, 1000 and 390 px, in light
 * and dark mode. `npm run screenshots -- [site folder] [out folder] [route ...]` (defaults: build/,
 * screenshots/, a chapter with comparisons in both languages, the home page and search).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { launchChromium, BASE_PATH } from '../test/helpers/browser.js';
import { startStaticServer } from '../src/server/static-server.js';

const [siteDir = 'build', outDir = 'screenshots', ...routes] = process.argv.slice(2);
const pages = routes.length
  ? routes
  : ['', 'zh-cn/', 'dictionary/', 'zh-cn/dictionary/', 'create-and-import-packages/', 'search/?q=dict'];
const widths = [1440, 1280, 1000, 390];

mkdirSync(outDir, { recursive: true });
const server = await startStaticServer({
  dir: siteDir,
  basePath: BASE_PATH,
  port: 0,
  localeDirs: ['zh-cn'],
  log: () => {},
});
const browser = await launchChromium();
try {
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of widths) {
      const context = await browser.newContext({
        viewport: { width, height: width === 390 ? 844 : 900 },
        colorScheme: scheme,
        deviceScaleFactor: 1,
      });
      const page = await context.newPage();
      for (const route of pages) {
        await page.goto(server.url + route, { waitUntil: 'networkidle' });
        const name = `${(route || 'home').replace(/[/?=]+/g, '_').replace(/_$/, '')}-${width}-${scheme}.png`;
        // FULL_PAGE=1 captures the whole page, not just the first screen.
        await page.screenshot({ path: path.join(outDir, name), fullPage: process.env.FULL_PAGE === '1' });
        process.stdout.write(`${name}\n`);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
