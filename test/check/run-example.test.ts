import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineDiff, normalizeOutput } from '../../src/check/diff.js';
import { isRunnable, runExample } from '../../src/check/run-example.js';
import type { CodeExample } from '../../src/markdown/types.js';

let fixtures: string;
beforeAll(async () => {
  fixtures = await mkdtemp(path.join(os.tmpdir(), 'pybook-check-fixtures-'));
  await writeFile(path.join(fixtures, 'users.json'), '[{"name": "ada"}, {"name": "grace"}]');
});
afterAll(() => rm(fixtures, { recursive: true, force: true }));

const python = (code: string, extra: Partial<CodeExample> = {}): CodeExample => ({ lang: 'python', code, line: 10, ...extra });

// Each example starts a Python or Node process: run them side by side.
describe.concurrent('runExample', () => {
  it('passes when the output matches', async ({ expect }) => {
    expect(await runExample(python('print(sum(range(1, 101)))', { output: '5050\n' }), fixtures)).toEqual({ ok: true });
  });

  it('ignores trailing spaces and trailing blank lines', async ({ expect }) => {
    expect(await runExample(python('print("a  ")\nprint()\nprint()', { output: 'a' }), fixtures)).toEqual({ ok: true });
  });

  it('shows a diff when the output differs', async ({ expect }) => {
    const outcome = await runExample(python('print(1)\nprint(2)\nprint(3)', { output: '1\ntwo\n3' }), fixtures);
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toBe('output differs (- expected, + actual):\n  1\n+ 2\n- two\n  3');
  });

  it('without an output block only has to finish', async ({ expect }) => {
    expect(await runExample(python('x = 1'), fixtures)).toEqual({ ok: true });
  });

  it('an unexpected exception fails with the end of the traceback', async ({ expect }) => {
    const outcome = await runExample(python('print("before")\nraise KeyError("missing")', { output: 'before' }), fixtures);
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(/^exited with code 1:\n/);
    expect(outcome.message).toContain('KeyError: \'missing\'');
  });

  it('raises="ValueError" expects that exception and compares stdout followed by its last line', async ({ expect }) => {
    const example = python('print("parsing")\nint("abc")', {
      raises: 'ValueError',
      output: 'parsing\nValueError: invalid literal for int() with base 10: \'abc\'',
    });
    expect(await runExample(example, fixtures)).toEqual({ ok: true });
  });

  it('raises fails when nothing is raised or something else is', async ({ expect }) => {
    const none = await runExample(python('print(1)', { raises: 'ValueError' }), fixtures);
    expect(none).toEqual({ ok: false, message: 'expected it to raise ValueError, but it finished without error' });
    const other = await runExample(python('{}["k"]', { raises: 'ValueError' }), fixtures);
    expect(other).toEqual({ ok: false, message: 'expected it to raise ValueError, but it failed with: KeyError: \'k\'' });
  });

  it('runs JavaScript examples with node', async ({ expect }) => {
    const example: CodeExample = { lang: 'javascript', code: 'console.log([1, 2].map((n) => n * 2));', line: 3, output: '[ 2, 4 ]' };
    expect(await runExample(example, fixtures)).toEqual({ ok: true });
  });

  it('runs in a fresh folder holding a copy of the book fixtures', async ({ expect }) => {
    const code = 'import json, os\nprint([u["name"] for u in json.load(open("users.json"))])\nopen("scratch.txt", "w").write("x")';
    expect(await runExample(python(code, { output: "['ada', 'grace']" }), fixtures)).toEqual({ ok: true });
    // The example wrote into its own copy, not into the fixtures folder.
    expect(await runExample(python('import os\nprint(os.path.exists("scratch.txt"))', { output: 'False' }), fixtures)).toEqual({ ok: true });
  });

  it('prints non-ASCII text as UTF-8', async ({ expect }) => {
    expect(await runExample(python('print("你好, Python")', { output: '你好, Python' }), fixtures)).toEqual({ ok: true });
  });
});

describe('isRunnable', () => {
  it('runs Python and JavaScript unless norun gives a reason', () => {
    expect(isRunnable(python('x'))).toBe(true);
    expect(isRunnable({ lang: 'javascript', code: 'x', line: 1 })).toBe(true);
    expect(isRunnable(python('x', { norun: 'needs the network' }))).toBe(false);
    expect(isRunnable({ lang: 'bash', code: 'pip install requests', line: 1 })).toBe(false);
    expect(isRunnable({ lang: 'typescript', code: 'let x: number', line: 1 })).toBe(false);
  });
});

describe('lineDiff and normalizeOutput', () => {
  it('marks expected lines with - and actual lines with +', () => {
    expect(lineDiff('a\nb\nc', 'a\nc\nd')).toBe('  a\n- b\n  c\n+ d');
    expect(lineDiff('same', 'same')).toBe('  same');
  });

  it('normalizes line endings, trailing spaces and trailing blank lines', () => {
    expect(normalizeOutput('a  \r\nb\t\n\n\n')).toBe('a\nb');
  });
});
