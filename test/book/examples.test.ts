import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkBook, probePython, type ChapterReport } from '../../src/check/check-book.js';
import { loadConfig } from '../../src/config/load-config.js';
import { BROWSER_CHECK_FILE, currentRuntime, type BrowserCheckRecord } from '../../src/runner/build/browser-check-file.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The newest Python 3 on this machine besides the default one: PYBOOK_NEWEST_PYTHON (CI sets it to
 * a virtual environment with pytest), else the highest pyenv version, else python3 itself.
 */
function newestPython(): string {
  if (process.env.PYBOOK_NEWEST_PYTHON) return process.env.PYBOOK_NEWEST_PYTHON;
  const versions = path.join(os.homedir(), '.pyenv', 'versions');
  const candidates = existsSync(versions) ? readdirSync(versions).filter((v) => /^3\.\d+\.\d+$/.test(v)) : [];
  candidates.sort((a, b) => {
    const [x, y] = [a, b].map((v) => v.split('.').map(Number));
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
  const newest = candidates.at(-1);
  return newest && existsSync(path.join(versions, newest, 'bin', 'python3')) ? path.join(versions, newest, 'bin', 'python3') : 'python3';
}

/** Every runnable example of the real book, in both languages: the same run as `pybook check`. */
describe('the book\'s code examples', () => {
  let reports: ChapterReport[] = [];

  it('all run and print their documented output, with python3 and node and in the reader\'s runtimes (Pyodide, the sandbox)', async () => {
    reports = await checkBook(loadConfig(path.join(root, 'book.config.json')), { keepRecord: true });
    const failures = reports.flatMap((r) => r.failures.map((f) => `${r.file}:${f.line} ${f.message}`));
    expect(failures).toEqual([]);
    expect(reports.length).toBe(96);
  }, 1_800_000);

  it('the committed browser-check record says exactly what this check found (pages offer Run for those examples only)', () => {
    const config = loadConfig(path.join(root, 'book.config.json'));
    const record = JSON.parse(readFileSync(path.join(root, 'book', BROWSER_CHECK_FILE), 'utf8')) as BrowserCheckRecord;
    expect(record.runtime, 'run `npx pybook check` to make the record again').toEqual(currentRuntime(config));
    const passed = [...new Set(reports.flatMap((r) => r.passedInBrowser))].sort();
    expect(record.passed, 'run `npx pybook check` to make the record again').toEqual(passed);
  });

  it('at least 90% of the Python examples that run with python3 also run in the browser, in each language', () => {
    for (const locale of ['en', 'zh-cn']) {
      const mine = reports.filter((r) => r.locale === locale);
      const native = mine.reduce((n, r) => n + (r.passedNatively.python ?? 0), 0);
      const inBrowser = mine.reduce((n, r) => n + r.browser.python.passed, 0);
      expect(native).toBeGreaterThan(400);
      expect(inBrowser / native).toBeGreaterThanOrEqual(0.9);
      // Everything else is marked, with a reason readers see (or is a pytest file).
      const javascript = mine.reduce((n, r) => n + r.browser.javascript.passed, 0);
      expect(javascript).toBeGreaterThan(80);
    }
  });

  it('the Python examples print the same on the newest Python of the machine', async () => {
    const python = newestPython();
    const info = probePython(python);
    expect(info.version).toMatch(/^3\./);
    // That Python may lack pytest (CI makes its virtual environment with pytest only where a package
    // index can be reached): its pytest blocks are then listed as not run, not failed.
    const newest = await checkBook(loadConfig(path.join(root, 'book.config.json')), { python, langs: ['python'], browser: false, allowMissingPytest: true });
    const failures = newest.flatMap((r) => r.failures.map((f) => `${r.file}:${f.line} ${f.message}`));
    expect(failures, `Python ${info.version} (${python})`).toEqual([]);
    // Only pytest blocks may be left out, and only where that Python has no pytest.
    const notRun = newest.flatMap((r) => r.notRun);
    if (info.hasPytest) expect(notRun).toEqual([]);
    else for (const n of notRun) expect(n.reason).toMatch(/^pytest is not installed/);
  }, 1_800_000);

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
