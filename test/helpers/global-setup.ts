import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { Builder } from '../../src/generator/build.js';
import { writeSiteAtomically } from '../../src/output/write-site.js';
import { CHROMIUM, SHARED_BROWSER_ENV } from './browser.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface SharedSetup {
  close(): Promise<void>;
  users: number;
}

/** The setup of the run, shared by the projects that name this file (vitest calls it once for each). */
const shared = globalThis as typeof globalThis & { pybookTestSetup?: Promise<SharedSetup> };

/**
 * Builds the real book once per test run into .test-build/site; browser, search and server
 * tests read it through PYBOOK_TEST_SITE instead of building it again each. Starts the one
 * Chromium that the browser tests connect to (launchChromium in browser.ts). Both are made once
 * for the projects that use them (vitest.config.ts), and the browser is stopped after the last.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const setupOfRun = await (shared.pybookTestSetup ??= setUpRun());
  setupOfRun.users++;
  return async () => {
    if (--setupOfRun.users === 0) await setupOfRun.close();
  };
}

async function setUpRun(): Promise<SharedSetup> {
  // The test run's own user cache folder (vitest.config.ts points XDG_CACHE_HOME at it): emptied at its start.
  const userCache = path.join(root, '.test-build', 'user-cache');
  rmSync(userCache, { recursive: true, force: true });
  mkdirSync(userCache, { recursive: true });
  const outDir = path.join(root, '.test-build', 'site');
  const [browser, result] = await Promise.all([
    chromium.launchServer(CHROMIUM),
    new Builder({ configPath: path.join(root, 'book.config.json') }).build(),
  ]);
  writeSiteAtomically(outDir, result.files, result.staticDirs);
  process.env.PYBOOK_TEST_SITE = outDir;
  process.env[SHARED_BROWSER_ENV] = browser.wsEndpoint();
  return { close: () => browser.close(), users: 0 };
}
