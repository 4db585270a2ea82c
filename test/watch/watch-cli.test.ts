/**
 * `pybook watch` as the command a reader types: a child process on a tiny temporary book.
 * It says when it is ready and where it serves, then that the search index is ready, rebuilds
 * on an edit, logs a located error without exiting,
 * and Ctrl+C stops it with exit code 0. (The browser side is in watch-browser.test.ts.)
 */
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createTinyBook } from './tiny-book.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Runs the CLI's `main` from src/ through tsx, as bin/pybook.js does from dist/.
const ENTRY = `import { main } from './src/cli/index.ts'; await main(['node', 'pybook', ...process.argv.slice(1)]);`;
const book = createTinyBook();

afterAll(() => rmSync(book.dir, { recursive: true, force: true }));

async function until<T>(
  read: () => T | undefined | Promise<T | undefined>,
  what: string,
  log: () => string,
): Promise<T> {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('pybook watch (command line)', () => {
  it('serves, rebuilds on edits, survives a broken chapter, and exits 0 on Ctrl+C', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        ENTRY,
        'watch',
        '--config',
        book.configPath,
        '--out-dir',
        path.join(book.dir, 'site'),
        '--port',
        '0',
      ],
      { cwd: root },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await until(
        () => /Ready in \d+ ms: watching \S+ — serving at (http:\/\/\S+)/.exec(output)?.[1],
        'the watch URL',
        () => output,
      );
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/python-guide-for-javascript-engineers\/$/);
      expect(await (await fetch(`${url}alpha/`)).text()).toContain('Alpha chapter');
      // The search index follows once the page is served, and says so.
      await until(
        () => (/\nsearch index ready \(\d+ ms\)/.test(output) ? true : undefined),
        'the search index',
        () => output,
      );

      appendFileSync(book.file('en', 'alpha'), '\nAn edit made from the test.\n');
      await until(
        async () =>
          (await (await fetch(`${url}alpha/`)).text()).includes('An edit made from the test.') ? true : undefined,
        'the edit to be served',
        () => output,
      );
      expect(output).toMatch(/rebuilt \(change \S*alpha\.mdx\) in \d+ ms, \d+ files? changed/);

      const good = readFileSync(book.file('en', 'beta'), 'utf8');
      writeFileSync(book.file('en', 'beta'), `${good}\n<Unknown />\n`);
      const errorLine = good.split('\n').length + 1;
      await until(
        () => (output.includes(`beta.mdx:${errorLine}:1: unknown component <Unknown>`) ? true : undefined),
        'the located error',
        () => output,
      );
      expect(output).toContain('the last good version is still being served');
      expect(child.exitCode).toBeNull();
      expect((await fetch(`${url}beta/`)).status).toBe(200);

      child.kill('SIGINT');
      expect(await exit).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
