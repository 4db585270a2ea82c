import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBook } from '../../src/check/check-book.js';
import { loadConfig } from '../../src/config/load-config.js';
import { chapter, createFixtureBook, type FixtureBook } from '../fixtures/fixture-book.js';
import { processesWith } from '../helpers/processes.js';

/**
 * However `pybook check` fails or is stopped, it leaves nothing running and no temporary folder:
 * every example's process tree (even a child that left its session) and folder go with it.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

const until = async (condition: () => boolean, withinMs: number) => {
  const deadline = Date.now() + withinMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return condition();
};

/** The example folders left in `tmp` (other tools, such as tsx, may keep their own files there). */
const exampleFolders = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('pybook-example-'));

/** A Python example that starts a uniquely named `sleep` in its own session, then waits forever. */
function endless(marker: string): string {
  return `\`\`\`python\nimport subprocess, time\nsubprocess.Popen(["sleep", "${marker}"], start_new_session=True)\ntime.sleep(3600)\n\`\`\``;
}

const uniqueSleep = (tag: number) => `3600.${process.pid}${tag}${Math.floor(Math.random() * 1e6)}`;

let book: FixtureBook;
let tmp: string;
const marker = uniqueSleep(1);

beforeAll(async () => {
  book = await createFixtureBook({
    chapters: {
      en: {
        // Finishes after a few seconds, when the endless example has started its child.
        quick: chapter('Quick', '```python\nimport time\ntime.sleep(5)\nprint("ok")\n```\n\n```output\nok\n```'),
        endless: chapter('Endless', endless(marker)),
      },
    },
  });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'pybook-check-tmp-'));
});
afterAll(async () => {
  for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
  await book.remove();
  await rm(tmp, { recursive: true, force: true });
});

describe('a check that fails on its own', () => {
  it('ends every other running example with what it started and removes their folders before it rejects', async () => {
    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    let seen = false;
    try {
      const check = checkBook(
        loadConfig(book.configPath),
        { jobs: 2, browser: false, limits: { timeoutMs: 120_000 } },
        (report) => {
          if (report.slug !== 'quick') return;
          seen = processesWith(marker).length > 0;
          throw new Error('the report could not be written');
        },
      );
      await expect(check).rejects.toThrow('the report could not be written');
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
    // The endless example was running when the check failed, and nothing of it is left.
    expect(seen).toBe(true);
    expect(await until(() => processesWith(marker).length === 0, 30_000)).toBe(true);
    expect(exampleFolders(tmp)).toEqual([]);
  });
});

describe('a check stopped by a signal', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal}: ends every example's process tree, removes every folder, then ends as the signal would`, async () => {
      const signalled = uniqueSleep(signal === 'SIGTERM' ? 2 : 3);
      const own = await createFixtureBook({ chapters: { en: { endless: chapter('Endless', endless(signalled)) } } });
      const script = `import { checkBook } from ${JSON.stringify(path.join(root, 'src/check/check-book.ts'))};
import { loadConfig } from ${JSON.stringify(path.join(root, 'src/config/load-config.ts'))};
await checkBook(loadConfig(${JSON.stringify(own.configPath)}), { browser: false, limits: { timeoutMs: 120_000 } });`;
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: root,
        env: { ...process.env, TMPDIR: tmp },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
      });
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on('exit', (code, sig) => resolve({ code, signal: sig })),
      );
      try {
        expect(await until(() => processesWith(signalled).length > 0, 120_000), stderr).toBe(true);
        expect(exampleFolders(tmp)).toHaveLength(1);
        child.kill(signal);
        expect(await ended).toEqual({ code: null, signal });
        expect(await until(() => processesWith(signalled).length === 0, 30_000)).toBe(true);
        expect(exampleFolders(tmp)).toEqual([]);
      } finally {
        child.kill('SIGKILL');
        for (const pid of processesWith(signalled)) process.kill(pid, 'SIGKILL');
        await own.remove();
      }
    });
  }
});
