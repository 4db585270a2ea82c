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

/** Whether a process is still running (signal 0 only asks). */
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };

describe('runExample and the processes an example starts', () => {
  it('a timed-out example is killed with everything it started', async () => {
    const pidFile = path.join(fixtures, `grandchild-${process.pid}.pid`);
    const code = `import subprocess, time\nchild = subprocess.Popen(["sleep", "300"])\nopen(${JSON.stringify(pidFile)}, "w").write(str(child.pid))\ntime.sleep(300)`;
    const started = Date.now();
    const outcome = await runExample(python(code), fixtures, { timeoutMs: 1500 });
    expect(outcome).toEqual({ ok: false, message: 'did not finish within 1.5 s' });
    expect(Date.now() - started).toBeLessThan(60_000);
    const { readFileSync } = await import('node:fs');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    // SIGKILL is delivered at once, but the kernel reaps asynchronously: wait for it.
    const deadline = Date.now() + 30_000;
    while (alive(grandchild) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive(grandchild)).toBe(false);
  });

  it('a background process left holding the output pipe does not stall the check', async () => {
    const started = Date.now();
    const outcome = await runExample(python('import subprocess\nsubprocess.Popen(["sleep", "300"])\nprint("done")', { output: 'done' }), fixtures);
    expect(outcome).toEqual({ ok: true });
    // Without ending the process group this would wait for the sleep's 300 s.
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});

const TESTS = 'def add(a, b):\n    return a + b\n\ndef test_add():\n    assert add(2, 3) == 5\n\ndef test_fails():\n    assert add(2, 2) == 5\n';
const dots = (marks: string) => `${marks.padEnd(73)}[100%]`;

describe.concurrent('pytest blocks', () => {
  it('run with pytest; a failing test is output to compare, and durations do not count', async ({ expect }) => {
    const example = python(TESTS, { pytest: '-k add', title: 'test_cart.py', output: `${dots('.')}\n1 passed, 1 deselected in 0.42s` });
    expect(await runExample(example, fixtures)).toEqual({ ok: true });
    // pytest exits 1 when a test fails; an example may show that on purpose.
    const summary = '=========================== short test summary info ============================';
    const failing = python(TESTS, { pytest: '--tb=no', output: `${dots('.F')}\n${summary}\nFAILED test_example.py::test_fails - assert 4 == 5\n1 failed, 1 passed in 9.99s` });
    expect(await runExample(failing, fixtures)).toEqual({ ok: true });
  });

  it('compare the counts: a different result fails the check', async ({ expect }) => {
    const outcome = await runExample(python(TESTS, { pytest: '-k add', output: `${dots('.')}\n2 passed in 0.01s` }), fixtures);
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toContain('+ 1 passed, 1 deselected in');
  });
});

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
