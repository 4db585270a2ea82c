/**
 * `pybook watch` against hostile circumstances: a chapter that makes the parser crawl (the
 * server keeps answering, and the chapter fails with its file and line), and its output folder
 * deleted while it runs (written again from memory, but never over a folder someone else filled).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWatch, type WatchSession } from '../../src/cli/watch.js';
import { BUDGET_ENV, chapterBudgetMs } from '../../src/generator/compile-budget/budget.js';
import { budgetInSeconds } from '../../src/generator/compile-budget/costly-chapter-error.js';
import { MARKER_FILE } from '../../src/output/marker.js';
import { createTinyBook } from './tiny-book.js';

const book = createTinyBook();
const outDir = path.join(book.dir, 'site');
const log: string[] = [];
let session: WatchSession;
// Short enough for a test, long enough for a tiny chapter in a cold worker on a busy machine.
const BASE_BUDGET_MS = 1500;

beforeAll(async () => {
  process.env[BUDGET_ENV] = String(BASE_BUDGET_MS);
  session = await startWatch({ config: book.configPath, outDir, port: 0, host: '127.0.0.1' }, (line) => log.push(line));
});
afterAll(async () => {
  delete process.env[BUDGET_ENV];
  await session?.close();
  rmSync(book.dir, { recursive: true, force: true });
});

async function until<T>(
  read: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; log:\n${log.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * A page by a fresh connection each time (no keep-alive): polling fetch() raced the server
 * closing an idle kept-alive socket (ECONNRESET), which says nothing about the server.
 */
const page = (route: string) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    get(`${session.server.url}${route}`, { agent: false }, (response) => {
      let text = '';
      response
        .setEncoding('utf8')
        .on('data', (chunk: string) => {
          text += chunk;
        })
        .on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    }).on('error', reject);
  });

describe('a chapter that makes the parser crawl, in watch', () => {
  it('keeps serving while the chapter compiles off its thread, then fails it naming the file and line', async () => {
    const good = readFileSync(book.file('en', 'beta'), 'utf8');
    // Some 25 s of micromark on one thread: 30,000 "*_" on one line (60 KB). The parser's time
    // grows with the square of the line, the budget only with the chapter's length: 20,000 took
    // 7.7-10.5 s here against a budget of 7.6 s, and a compile that beat it failed the test.
    const culpritLine = good.split('\n').length + 2;
    writeFileSync(
      book.file('en', 'beta'),
      `${good}\nA paragraph before it.\n${'*_'.repeat(30_000)}\n\nOne after it.\n`,
    );
    const budgetMs = chapterBudgetMs(BASE_BUDGET_MS, readFileSync(book.file('en', 'beta'), 'utf8').length);

    const latencies: number[] = [];
    const errorLine = await until(async () => {
      const started = performance.now();
      expect((await page('alpha/')).status).toBe(200);
      latencies.push(performance.now() - started);
      return log.find((line) => line.startsWith('error: ') && line.includes('beta.mdx'));
    }, 'the chapter to fail');
    expect(errorLine).toContain(
      `beta.mdx:${culpritLine}:1: compiling this chapter took longer than its budget of ${budgetInSeconds(budgetMs)} and was stopped: line ${culpritLine} is the cause (60,000 characters; without it the chapter compiles in time)`,
    );
    // Requests were answered all along: none waited for the parser (a compile on the server's
    // thread would hold a request for the whole budget and more).
    expect(latencies.length).toBeGreaterThan(5);
    expect(Math.max(...latencies)).toBeLessThan(budgetMs);
    expect((await page('beta/')).text).toContain('Beta chapter');

    writeFileSync(book.file('en', 'beta'), `${good}\nFixed again.\n`);
    await until(
      async () => ((await page('beta/')).text.includes('Fixed again.') ? true : undefined),
      'the fixed chapter',
    );
  });
});

describe('the output folder deleted during watch', () => {
  it('is written again from memory at the next request', async () => {
    expect((await page('alpha/')).status).toBe(200);
    // No search step or rebuild left to write files: they bring back missing files themselves.
    await until(
      () => (log.some((line) => line.startsWith('search index ready')) ? true : undefined),
      'the search index',
    );
    await session.idle();
    rmSync(outDir, { recursive: true, force: true });
    const alpha = await page('alpha/');
    expect(alpha.status).toBe(200);
    expect(alpha.text).toContain('Alpha chapter');
    expect((await page('zh-cn/gamma/')).text).toContain('伽马章节');
    expect(existsSync(path.join(outDir, MARKER_FILE))).toBe(true);
    expect(log).toContain(`${outDir} was deleted: written again from memory`);
  });

  it('is written again when its contents were deleted (the folder left empty)', async () => {
    for (const name of readdirSync(outDir)) rmSync(path.join(outDir, name), { recursive: true, force: true });
    expect((await page('beta/')).text).toContain('Beta chapter');
  });

  it('is never written over a folder that someone else filled in its place', async () => {
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir);
    writeFileSync(path.join(outDir, 'notes.txt'), 'mine');
    expect((await page('alpha/')).status).toBe(404);
    expect(readFileSync(path.join(outDir, 'notes.txt'), 'utf8')).toBe('mine');
    expect(
      log.filter((line) =>
        line.startsWith(`error: ${outDir} was deleted and cannot be written again: refusing to write the site`),
      ),
    ).toHaveLength(1);
    expect((await page('beta/')).status).toBe(404);
    expect(log.filter((line) => line.includes('cannot be written again'))).toHaveLength(1);
  });
});
