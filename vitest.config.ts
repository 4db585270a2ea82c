import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm test` runs three projects; `npm run test:unit` runs the first alone.
 *
 * - unit: what a contributor runs on every save, in well under 90 seconds on two cores. It builds
 *   no site and starts no browser, no Python and no child process: the compiler's plugins, the
 *   lexers, the search engine, the server's routing, the config, the sidebar and page models, the
 *   learner's data. Its files run two at a time.
 * - browser: headless Chromium on the real book's site (test/e2e, and watch mode's live page).
 * - book: the real book's examples and exports, the check, the runners, the CLI, the safety
 *   properties: whatever builds a site, starts processes or takes 5 s or more.
 *
 * The unit project runs first, two files at a time. Then the browser and book projects run as one
 * group, two files at a time too: one at a time, the two cores stood idle a fifth of the run (a
 * browser test waits for its page, a check for its processes); two at a time they are busy nearly
 * all of it (npm test: about 1,440 s one at a time, 1,180-1,240 s two at a time). A file beside
 * another is a busy machine, which every verdict must stand: each of the first three runs two at a
 * time found one that did not (table-of-contents' readAt, markdown-actions' chunk count, set.mdx's
 * timed example), each now fixed where it was wrong. The global setup
 * (test/helpers/global-setup.ts) builds the site and starts the one Chromium they share.
 */
const root = fileURLToPath(new URL('./', import.meta.url));

const UNIT_FOLDERS = /^test\/(config|markdown|search|server|theme|pages|progress|llms|generator|output)\//;
const NOT_UNIT = new Set([
  // These read the real book's built site, start processes or write many output folders.
  'test/search/tokenize.test.ts',
  'test/search/relevance.test.ts',
  'test/llms/real-book.test.ts',
  'test/generator/real-book.test.ts',
  'test/generator/first-load-budget.test.ts',
  'test/output/output-folder-safety.test.ts',
  'test/generator/compile-pool.test.ts',
  'test/generator/compile-budget.test.ts',
  'test/generator/heap-growth.test.ts',
  // Property and whole-book tests of 5 s or more each (measured on two busy cores).
  'test/markdown/tables.test.ts',
  'test/markdown/hide-code-bodies.test.ts',
  'test/markdown/highlight-shiki.test.ts',
  'test/markdown/parser.test.ts',
  'test/output/manifest-safety.test.ts',
  'test/generator/cache-pruning.property.test.ts',
]);
const BROWSER = /^test\/(e2e\/|watch\/watch-browser\.test\.ts$)/;

const testFiles = readdirSync(`${root}test`, { recursive: true, encoding: 'utf8' })
  .map((file) => `test/${file.split('\\').join('/')}`)
  .filter((file) => file.endsWith('.test.ts'))
  .sort();
const isUnit = (file: string) => UNIT_FOLDERS.test(file) && !NOT_UNIT.has(file);
const isBrowser = (file: string) => BROWSER.test(file);

/** A cache folder of the test run's own (the global setup empties user-cache at its start). */
const cacheFolder = (name: string) => `${root}.test-build/${name}`;

export default defineConfig({
  test: {
    // Two files at once (see above); vitest runs a group of projects with one count of workers.
    maxWorkers: 2,
    // Backstops against a hang, not verdicts on speed: a test waits for conditions, and a machine
    // under load (a CPU hog beside a run two files at a time: npm test took 2,071 s instead of
    // 1,168 s) stretches a 20 s test past a minute. No test sets a shorter bound of its own; the
    // whole-book check and export set longer ones.
    testTimeout: 600_000,
    hookTimeout: 900_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: testFiles.filter(isUnit),
          env: { XDG_CACHE_HOME: cacheFolder('unit-cache') },
          // Nothing here starts a process or a browser: a hang is better named within two minutes.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: testFiles.filter(isBrowser),
          globalSetup: ['test/helpers/global-setup.ts'],
          // Books without node_modules keep their build cache in the user's cache folder.
          env: { XDG_CACHE_HOME: cacheFolder('user-cache') },
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'book',
          include: testFiles.filter((file) => !isUnit(file) && !isBrowser(file)),
          globalSetup: ['test/helpers/global-setup.ts'],
          env: { XDG_CACHE_HOME: cacheFolder('user-cache') },
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
