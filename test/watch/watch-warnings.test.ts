/**
 * A watch session reports the build's warnings in its own log, as `pybook build` prints them
 * (`warning: file:line:column: message`): at the start and after each rebuild.
 */
import { appendFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startWatch, type WatchSession } from '../../src/cli/watch.js';
import { createTinyBook } from './tiny-book.js';

const book = createTinyBook();
let session: WatchSession | undefined;
afterAll(async () => {
  await session?.close();
  rmSync(book.dir, { recursive: true, force: true });
});

async function until(check: () => boolean, what: string, log: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; log:\n${log.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('pybook watch warnings', () => {
  it("logs the first build's warnings and a rebuild's, with file, line and column", async () => {
    const alpha = book.file('en', 'alpha');
    // The tiny chapter's last line is its last paragraph: a link to a heading beta does not have.
    appendFileSync(alpha, '\nSee [the missing part](./beta.mdx#nowhere).\n');
    const log: string[] = [];
    session = await startWatch(
      { config: book.configPath, outDir: path.join(book.dir, 'site'), port: 0, host: '127.0.0.1' },
      (line) => log.push(line),
    );
    const relative = path.relative(process.cwd(), alpha);
    const first = log.filter((line) => line.startsWith('warning: '));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(
      new RegExp(
        `^warning: ${relative.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:5: broken anchor "\\./beta\\.mdx#nowhere"`,
      ),
    );

    appendFileSync(alpha, '\nAnd [another](./gamma.mdx#elsewhere).\n');
    await until(() => log.some((line) => line.includes('#elsewhere')), "the rebuild's warning", log);
    const second = log.find((line) => line.includes('#elsewhere'))!;
    expect(second).toMatch(/^warning: \S+alpha\.mdx:\d+:5: broken anchor "\.\/gamma\.mdx#elsewhere"/);
    // Each warning line comes before the rebuild's own line.
    expect(log.findIndex((line) => line.includes('#elsewhere'))).toBeLessThan(
      log.findIndex((line) => line.startsWith('rebuilt')),
    );
  });
});
