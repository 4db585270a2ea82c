import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import type { BookConfig } from '../../src/shared/model/config.js';
import type { CodeExample } from '../../src/shared/model/chapter.js';
import {
  BROWSER_CHECK_FILE,
  currentRuntime,
  exampleKey,
  isOfferedToRun,
  readBrowserVerdicts,
  updateBrowserCheckRecord,
  type BrowserCheckRecord,
} from '../../src/runner/build/browser-check-file.js';
import { judgeRun, type Expectation } from '../../src/runner/shared/outcome.js';
import { chapter, createFixtureBook, type FixtureBook } from '../fixtures/fixture-book.js';

describe('judgeRun', () => {
  const python = (extra: Partial<Expectation> = {}): Expectation => ({ lang: 'python', ...extra });
  const ok = (stdout: string) => ({ status: 0, stdout, stderr: '' });

  it('passes a run that prints the output the book shows, trailing spaces and blank lines aside', () => {
    expect(judgeRun(python({ output: 'a\nb' }), ok('a\nb\n'))).toEqual({ ok: true });
    expect(judgeRun(python({ output: 'a  \nb' }), ok('a\nb   \n\n\n'))).toEqual({ ok: true });
    // Without an output block any output is fine; the exit status still counts.
    expect(judgeRun(python(), ok('whatever\n'))).toEqual({ ok: true });
  });

  it('fails a run whose output differs, with a diff', () => {
    const verdict = judgeRun(python({ output: 'a\nb' }), ok('a\nc\n'));
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.message).toBe('output differs (- expected, + actual):\n  a\n+ c\n- b');
    // Leading spaces do count.
    expect(judgeRun(python({ output: 'a' }), ok(' a\n')).ok).toBe(false);
  });

  it('fails a run that exits with an error the book does not show', () => {
    const verdict = judgeRun(python({ output: 'x' }), {
      status: 1,
      stdout: 'x\n',
      stderr: 'Traceback (most recent call last):\nKeyError: 1\n',
    });
    expect(verdict).toEqual({
      ok: false,
      message: 'exited with code 1:\nTraceback (most recent call last):\nKeyError: 1',
    });
    expect(judgeRun(python(), { status: 2, stdout: '', stderr: '' }, [0, 2])).toEqual({ ok: true });
  });

  describe('an example that raises', () => {
    const traceback = (last: string) =>
      `Traceback (most recent call last):\n  File "example.py", line 2, in <module>\n    int("x")\n${last}\n`;

    it("Python: the traceback's last line is the error, shown after the output", () => {
      const expectation = python({
        raises: 'ValueError',
        output: "before\nValueError: invalid literal for int() with base 10: 'x'",
      });
      const result = {
        status: 1,
        stdout: 'before\n',
        stderr: traceback("ValueError: invalid literal for int() with base 10: 'x'"),
      };
      expect(judgeRun(expectation, result)).toEqual({ ok: true });
      // Another message is other output.
      expect(judgeRun(expectation, { ...result, stderr: traceback('ValueError: something else') }).ok).toBe(false);
    });

    it('Python: an error only earlier in the traceback does not count', () => {
      const stderr =
        'Traceback (most recent call last):\nValueError: first\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\nKeyError: 2\n';
      expect(judgeRun(python({ raises: 'ValueError' }), { status: 1, stdout: '', stderr })).toEqual({
        ok: false,
        message: 'expected it to raise ValueError, but it failed with: KeyError: 2',
      });
    });

    it('fails a run that finishes without the error', () => {
      expect(judgeRun(python({ raises: 'ValueError' }), ok('fine\n'))).toEqual({
        ok: false,
        message: 'expected it to raise ValueError, but it finished without error',
      });
    });

    it('JavaScript: the sandbox\'s "Uncaught X: …" line, or node\'s error line', () => {
      const expectation: Expectation = {
        lang: 'javascript',
        raises: 'TypeError',
        output: "start\nTypeError: Cannot read properties of null (reading 'name')",
      };
      const sandbox = {
        status: 1,
        stdout: 'start\n',
        stderr: "Uncaught TypeError: Cannot read properties of null (reading 'name')\n",
      };
      expect(judgeRun(expectation, sandbox)).toEqual({ ok: true });
      const node = {
        status: 1,
        stdout: 'start\n',
        stderr:
          "file:///tmp/x/example.mjs:3\nuser.name\n     ^\n\nTypeError: Cannot read properties of null (reading 'name')\n    at file:///tmp/x/example.mjs:3:6\n\nNode.js v20.0.0\n",
      };
      expect(judgeRun(expectation, node)).toEqual({ ok: true });
      expect(judgeRun(expectation, { ...sandbox, stderr: 'Uncaught RangeError: nope\n' })).toEqual({
        ok: false,
        message: 'expected it to raise TypeError, but it failed with: Uncaught RangeError: nope',
      });
    });
  });
});

describe('exampleKey', () => {
  const base: CodeExample = { lang: 'python', code: 'print(1)', line: 5, output: '1' };
  const key = exampleKey(base);

  it('is a short hex digest, the same for the same example wherever it is', () => {
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(exampleKey({ ...base })).toBe(key);
    const elsewhere: CodeExample = { ...base, line: 99, title: 'one.py' };
    expect(exampleKey(elsewhere)).toBe(key);
  });

  it('changes when the language, code, output or error change', () => {
    const variants = [
      exampleKey({ ...base, lang: 'javascript' }),
      exampleKey({ ...base, code: 'print(1) ' }),
      exampleKey({ ...base, output: '2' }),
      exampleKey({ ...base, output: undefined }),
      exampleKey({ ...base, output: '' }),
      exampleKey({ ...base, raises: 'ValueError' }),
      exampleKey({ ...base, raises: 'KeyError' }),
    ];
    expect(new Set([key, ...variants]).size).toBe(variants.length + 1);
  });
});

describe('isOfferedToRun', () => {
  it('offers Python and JavaScript examples that are not marked and not pytest blocks', () => {
    expect(isOfferedToRun({ lang: 'python' })).toBe(true);
    expect(isOfferedToRun({ lang: 'javascript' })).toBe(true);
    expect(isOfferedToRun({ lang: 'bash' })).toBe(false);
    expect(isOfferedToRun({ lang: 'python', norun: 'network' })).toBe(false);
    expect(isOfferedToRun({ lang: 'python', nobrowser: 'subprocess' })).toBe(false);
    expect(isOfferedToRun({ lang: 'python', pytest: '' })).toBe(false);
  });
});

describe('the browser-check record', () => {
  let book: FixtureBook;
  let config: BookConfig;
  let recordFile: string;
  const read = () => JSON.parse(readFileSync(recordFile, 'utf8')) as BrowserCheckRecord;
  const write = (record: unknown) =>
    writeFile(recordFile, typeof record === 'string' ? record : JSON.stringify(record));

  beforeAll(async () => {
    book = await createFixtureBook({ chapters: { en: { intro: chapter('Intro') } } });
    await mkdir(path.join(book.root, 'book', 'fixtures'), { recursive: true });
    await writeFile(path.join(book.root, 'book', 'fixtures', 'users.json'), '[]');
    config = loadConfig(book.configPath);
    recordFile = path.join(book.root, 'book', BROWSER_CHECK_FILE);
  });
  afterAll(() => book.remove());
  beforeEach(() => rm(recordFile, { force: true }));

  it('is written in the content folder with the current runtime and the passed keys, sorted', () => {
    expect(
      updateBrowserCheckRecord(
        config,
        new Map([
          ['bbb', true],
          ['aaa', true],
          ['ccc', false],
        ]),
      ),
    ).toBe(recordFile);
    expect(read()).toEqual({ runtime: currentRuntime(config), passed: ['aaa', 'bbb'] });
    const runtime = currentRuntime(config);
    expect(runtime.pyodide).toMatch(/^\d+\.\d+/);
    expect(runtime.runner).toBeTypeOf('number');
    expect(runtime.fixtures).toMatch(/^[0-9a-f]{16}$/);
  });

  it('merges with the existing record: examples checked now replace what it said of them', () => {
    updateBrowserCheckRecord(
      config,
      new Map([
        ['aaa', true],
        ['bbb', true],
      ]),
    );
    updateBrowserCheckRecord(
      config,
      new Map([
        ['bbb', false],
        ['ccc', true],
      ]),
    );
    expect(read().passed).toEqual(['aaa', 'ccc']);
  });

  it('drops keys the book no longer has when bookKeys is given, and only then', () => {
    updateBrowserCheckRecord(
      config,
      new Map([
        ['aaa', true],
        ['bbb', true],
      ]),
    );
    updateBrowserCheckRecord(config, new Map([['ccc', true]]));
    expect(read().passed).toEqual(['aaa', 'bbb', 'ccc']);
    updateBrowserCheckRecord(config, new Map([['ccc', true]]), new Set(['bbb', 'ccc', 'ddd']));
    expect(read().passed).toEqual(['bbb', 'ccc']);
  });

  it('starts afresh when the record was made with another runtime, or cannot be read', async () => {
    await write({ runtime: { ...currentRuntime(config), pyodide: '0.0.1' }, passed: ['old'] });
    updateBrowserCheckRecord(config, new Map([['new', true]]));
    expect(read()).toEqual({ runtime: currentRuntime(config), passed: ['new'] });
    await write({ runtime: { ...currentRuntime(config), runner: -1 }, passed: ['old'] });
    updateBrowserCheckRecord(config, new Map([['new', true]]));
    expect(read().passed).toEqual(['new']);
    await write('{ not json');
    updateBrowserCheckRecord(config, new Map([['new', true]]));
    expect(read().passed).toEqual(['new']);
  });

  describe('readBrowserVerdicts', () => {
    it('reports a missing record as a problem', () => {
      const verdicts = readBrowserVerdicts(config);
      expect(verdicts.problem).toBe(`${verdicts.file} does not exist`);
      expect(path.resolve(verdicts.file)).toBe(recordFile);
      expect(verdicts.passed.size).toBe(0);
    });

    it('reports a record that is not JSON as a problem', async () => {
      await write('{ "runtime": ');
      const verdicts = readBrowserVerdicts(config);
      expect(verdicts.problem).toMatch(/ is not valid JSON \(/);
      expect(verdicts.passed.size).toBe(0);
    });

    it('reports a record made with another runtime as a problem', async () => {
      for (const runtime of [
        { ...currentRuntime(config), pyodide: '0.0.1' },
        { ...currentRuntime(config), runner: 999 },
        { ...currentRuntime(config), fixtures: '0000000000000000' },
      ]) {
        await write({ runtime, passed: ['aaa'] });
        const verdicts = readBrowserVerdicts(config);
        expect(verdicts.problem).toMatch(/ was made with .*, not the current /);
        expect(verdicts.passed.size).toBe(0);
      }
    });

    it('a fixture changed since the check makes the record stale', async () => {
      updateBrowserCheckRecord(config, new Map([['aaa', true]]));
      expect(readBrowserVerdicts(config).problem).toBeUndefined();
      const fixture = path.join(book.root, 'book', 'fixtures', 'users.json');
      await writeFile(fixture, '[{"name": "ada"}]');
      try {
        expect(readBrowserVerdicts(config).problem).toMatch(/ was made with /);
      } finally {
        await writeFile(fixture, '[]');
      }
      expect(readBrowserVerdicts(config).problem).toBeUndefined();
    });

    it('returns the passed keys of a current record', () => {
      updateBrowserCheckRecord(
        config,
        new Map([
          ['aaa', true],
          ['bbb', true],
          ['ccc', false],
        ]),
      );
      const verdicts = readBrowserVerdicts(config);
      expect(verdicts.problem).toBeUndefined();
      expect([...verdicts.passed].sort()).toEqual(['aaa', 'bbb']);
      expect(existsSync(recordFile)).toBe(true);
    });
  });
});
