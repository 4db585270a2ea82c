import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkBook, type ChapterReport } from '../../src/check/check-book.js';
import { loadConfig } from '../../src/config/load-config.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Every runnable example of the real book, in both languages: the same run as `pybook check`. */
describe('the book\'s code examples', () => {
  let reports: ChapterReport[] = [];

  it('all run and print their documented output', async () => {
    reports = await checkBook(loadConfig(path.join(root, 'book.config.json')));
    const failures = reports.flatMap((r) => r.failures.map((f) => `${r.file}:${f.line} ${f.message}`));
    expect(failures).toEqual([]);
    expect(reports.length).toBe(80);
  }, 600_000);

  it('at least 85% of Python blocks run in each language, and every exemption says why', () => {
    for (const locale of ['en', 'zh-cn']) {
      const mine = reports.filter((r) => r.locale === locale);
      const python = mine.reduce((n, r) => n + r.pythonBlocks, 0);
      const runnable = mine.reduce((n, r) => n + r.pythonRunnable, 0);
      expect(python).toBeGreaterThan(300);
      expect(runnable / python).toBeGreaterThanOrEqual(0.85);
      for (const r of mine) for (const e of r.exempt) expect(e.reason.trim().length).toBeGreaterThan(5);
    }
  });
});
