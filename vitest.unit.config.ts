import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:unit`: the tests a contributor runs on every save, in well under 90 seconds on two
 * cores. They build no site and start no browser, no Python and no child process: the compiler's
 * plugins, the lexers, the search engine, the server's routing, the config, the sidebar and page
 * models, the learner's data. `npm test` (vitest.config.ts) runs them too, with everything else.
 */
export default defineConfig({
  test: {
    include: ['test/{config,markdown,search,server,theme,pages,progress,llms,generator,output}/**/*.test.ts'],
    exclude: [
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
      // Property and whole-book tests of 5 s or more each (measured on two busy cores): npm test's.
      'test/markdown/tables.test.ts',
      'test/markdown/hide-code-bodies.test.ts',
      'test/markdown/highlight-shiki.test.ts',
      'test/markdown/parser.test.ts',
      'test/output/manifest-safety.test.ts',
    ],
    env: { XDG_CACHE_HOME: fileURLToPath(new URL('./.test-build/unit-cache', import.meta.url)) },
    testTimeout: 60_000,
  },
});
