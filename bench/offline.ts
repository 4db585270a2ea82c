/**
 * "Make available offline" (src/offline/): what it stores and downloads per locale, read from the
 * built worker's own list of files, and the time from the click to "Available offline" in headless
 * Chromium against a local server (so it measures the worker and the browser's storage, not a
 * network). Run on its own: `node --import tsx bench/offline.ts <site>`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { OfflineManifest } from '../src/offline/shared/offline-data.js';
import { startStaticServer } from '../src/server/static-server.js';
import { launchChromium, newContext } from '../test/helpers/browser.js';

export interface OfflinePackFigures {
  locale: string;
  files: number;
  pages: number;
  /** Bytes the pack takes once stored (decoded). */
  storedBytes: number;
  /**
   * Bytes a download transfers from a server that sends the build's .br siblings (Pyodide's) and
   * compresses other text as it sends it (gzip level 6, as `pybook serve` and static hosts do).
   */
  wireBytes: number;
  /** Click to "Available offline", ms (a cold browser profile, a local server). */
  clickToDoneMs?: number;
}

const TEXT = /\.(html|js|mjs|json|css|svg|webmanifest)$/;

export function readOfflineManifest(siteDir: string): OfflineManifest {
  const worker = readFileSync(path.join(siteDir, 'sw.js'), 'utf8');
  if (!worker.startsWith('self.__pybookOffline=')) throw new Error('this site has no offline worker');
  return JSON.parse(worker.slice('self.__pybookOffline='.length, worker.indexOf(';\n'))) as OfflineManifest;
}

/** The bytes of each locale's pack (the locale, the app and the runtime). */
export function measureOfflinePacks(siteDir: string): OfflinePackFigures[] {
  const manifest = readOfflineManifest(siteDir);
  const fileOf = (u: string) => {
    const relative = u.slice(manifest.scope.length).split('?')[0];
    return path.join(siteDir, relative === '' || relative.endsWith('/') ? `${relative}index.html` : relative);
  };
  const wire = new Map<string, number>();
  const wireOf = (u: string) => {
    let bytes = wire.get(u);
    if (bytes === undefined) {
      const file = fileOf(u);
      try {
        bytes = readFileSync(`${file}.br`).length;
      } catch {
        const contents = readFileSync(file);
        bytes = TEXT.test(file) ? gzipSync(contents, { level: 6 }).length : contents.length;
      }
      wire.set(u, bytes);
    }
    return bytes;
  };
  return manifest.locales.map(({ code }) => {
    const groups = new Set(['app', 'runtime', code]);
    const pack = manifest.files.filter((file) => groups.has(manifest.groups[file.g]));
    return {
      locale: code,
      files: pack.length,
      pages: pack.filter((file) => file.t !== undefined).length,
      storedBytes: pack.reduce((sum, file) => sum + file.b, 0),
      wireBytes: pack.reduce((sum, file) => sum + wireOf(file.u), 0),
    };
  });
}

/** Times the click on "Make available offline" to the panel's "Available offline", per locale, each in a fresh profile. */
export async function timeMakeAvailableOffline(
  siteDir: string,
  basePath: string,
  locales: string[],
): Promise<Record<string, number>> {
  const [browser, server] = await Promise.all([
    launchChromium(),
    startStaticServer({ dir: siteDir, basePath, port: 0, localeDirs: ['zh-cn'], log: () => {} }),
  ]);
  const times: Record<string, number> = {};
  try {
    for (const locale of locales) {
      const context = await newContext(browser, { serviceWorkers: 'allow' });
      context.setDefaultTimeout(120_000);
      const page = await context.newPage();
      const prefix = locale === 'en' ? '' : `${locale}/`;
      await page.goto(`http://127.0.0.1:${server.port}${basePath}${prefix}dictionary/`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await page.locator('.offline-menu summary').click();
      const row = page.locator(`.offline-panel .offline-locale[data-locale="${locale}"]`);
      await row.locator('button.button-primary').waitFor();
      const started = Date.now();
      await row.locator('button.button-primary').click();
      await page.locator(`.offline-panel .offline-locale[data-locale="${locale}"][data-state="saved"]`).waitFor();
      times[locale] = Date.now() - started;
      await context.close();
    }
  } finally {
    await Promise.all([browser.close(), server.close()]);
  }
  return times;
}

export async function benchOffline(siteDir: string, basePath: string): Promise<OfflinePackFigures[]> {
  const packs = measureOfflinePacks(siteDir);
  const times = await timeMakeAvailableOffline(
    siteDir,
    basePath,
    packs.map((pack) => pack.locale),
  );
  return packs.map((pack) => ({ ...pack, clickToDoneMs: times[pack.locale] }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const site = process.argv[2] ?? 'build';
  const figures = await benchOffline(site, '/python-guide-for-javascript-engineers/');
  for (const f of figures)
    console.log(
      `${f.locale}: ${f.files} files (${f.pages} pages), ${(f.storedBytes / 1e6).toFixed(1)} MB stored, ${(f.wireBytes / 1e6).toFixed(1)} MB on the wire, click to done ${f.clickToDoneMs} ms`,
    );
}
