import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Books without node_modules keep their build cache in the user's cache folder: for the tests,
    // a folder of the test run's own (emptied by the global setup).
    env: { XDG_CACHE_HOME: fileURLToPath(new URL('./.test-build/user-cache', import.meta.url)) },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Browser and build tests start servers and Chromium: keep files from competing for 2 cores.
    fileParallelism: false,
  },
});
