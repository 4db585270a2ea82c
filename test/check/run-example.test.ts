import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineDiff, normalizeOutput } from '../../src/runner/shared/diff.js';
import { probeIsolation, processGroupIsolation } from '../../src/confine/isolation.js';
import { isRunnable, runExample } from '../../src/check/run-example.js';
import type { CodeExample } from '../../src/shared/model/chapter.js';
import { processesWith } from '../helpers/processes.js';

let fixtures: string;
beforeAll(async () => {
  fixtures = await mkdtemp(path.join(os.tmpdir(), 'pybook-check-fixtures-'));
  await writeFile(path.join(fixtures, 'users.json'), '[{"name": "ada"}, {"name": "grace"}]');
});
afterAll(() => rm(fixtures, { recursive: true, force: true }));

const python = (code: string, extra: Partial<CodeExample> = {}): CodeExample => ({
  lang: 'python',
  code,
  line: 10,
  ...extra,
});

/** SIGKILL is delivered at once, but the kernel reaps asynchronously: wait (for a condition, not a time). */
async function waitUntilGone(marker: string, withinMs = 30_000): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  while (processesWith(marker).length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return processesWith(marker);
}

/** Waits until a process with `marker` in its command line runs (the example got that far), then for `running`. */
async function seenWhile<T>(marker: string, running: Promise<T>): Promise<{ seen: boolean; result: T }> {
  let settled = false;
  void running.finally(() => {
    settled = true;
  });
  let seen = false;
  while (!settled && !(seen = processesWith(marker).length > 0))
    await new Promise((resolve) => setTimeout(resolve, 50));
  return { seen, result: await running };
}

/** A `sleep` that can be found by its command line: a unique duration such as 45.0123456. */
const uniqueSleep = (seconds: number) =>
  `${seconds}.${String(process.pid).padStart(7, '0')}${Math.floor(Math.random() * 1e6)}`;

/** The folders runExample makes: a private temporary folder per test, so that other checks on the machine do not count. */
async function withTmpdir<T>(work: (tmp: string) => Promise<T>): Promise<{ result: T; left: string[] }> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'pybook-tmpdir-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  try {
    const result = await work(tmp);
    return { result, left: readdirSync(tmp) };
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    await rm(tmp, { recursive: true, force: true });
  }
}

// Busy machines start Python slowly: the limits here are generous where the example is meant to finish.
describe('runExample and the processes an example starts', () => {
  it('a timed-out example is killed with everything it started', async () => {
    const sleep = uniqueSleep(300);
    const code = `import subprocess, time\nchild = subprocess.Popen(["sleep", "${sleep}"])\ntime.sleep(300)`;
    const started = Date.now();
    // It did start the child before the limit (seen from outside: the example cannot write outside its folder).
    const { seen, result: outcome } = await seenWhile(sleep, runExample(python(code), fixtures, { timeoutMs: 8000 }));
    expect(seen).toBe(true);
    expect(outcome).toEqual({ ok: false, message: 'did not finish within 8 s' });
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(await waitUntilGone(sleep)).toEqual([]);
  });

  it('a background process left holding the output pipe does not stall the check', async () => {
    const started = Date.now();
    const outcome = await runExample(
      python('import subprocess\nsubprocess.Popen(["sleep", "300"])\nprint("done")', { output: 'done' }),
      fixtures,
      { timeoutMs: 60_000 },
    );
    expect(outcome).toEqual({ ok: true });
    // Without ending the process group this would wait for the sleep's 300 s.
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('a child that leaves its session (start_new_session) is ended with the example, which passes at once', async () => {
    const sleep = uniqueSleep(45);
    const code = `import subprocess\nsubprocess.Popen(["sleep", "${sleep}"], start_new_session=True)\nprint("done")`;
    const { result: outcome, left } = await withTmpdir(() =>
      runExample(python(code, { output: 'done' }), fixtures, { timeoutMs: 30_000 }),
    );
    expect(outcome).toEqual({ ok: true });
    expect(await waitUntilGone(sleep)).toEqual([]);
    expect(left).toEqual([]);
  });

  it('an example that never ends, with a `sleep infinity` in its own session, ends at the limit with both', async () => {
    const marker = `pybook-${process.pid}-infinity`;
    // The shell stays (it has a command after the sleep) and carries the marker as its $0.
    const code = `import subprocess, time\nsubprocess.Popen(["sh", "-c", "sleep infinity; exit 0", "${marker}"], start_new_session=True)\ntime.sleep(3600)`;
    const started = Date.now();
    const {
      result: { seen, result: outcome },
      left,
    } = await withTmpdir(() => seenWhile(marker, runExample(python(code), fixtures, { timeoutMs: 10_000 })));
    expect(seen).toBe(true);
    expect(outcome).toEqual({ ok: false, message: 'did not finish within 10 s' });
    // The limit plus the short wait for the pipes, not the escaped child's lifetime.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await waitUntilGone(marker)).toEqual([]);
    expect(left).toEqual([]);
  });
});

describe('runExample without namespaces (the fallback: a process group)', () => {
  it('stops waiting for pipes that a process outside the group holds, and says what it cannot promise', async () => {
    const isolation = processGroupIsolation();
    expect(isolation.warning).toMatch(
      /^warning: examples run in a process group only: they can reach the network, and a process that leaves its session may outlive its example/,
    );
    const sleep = uniqueSleep(45);
    const code = `import subprocess\nsubprocess.Popen(["sleep", "${sleep}"], start_new_session=True)\nprint("done")`;
    const started = Date.now();
    try {
      const outcome = await runExample(python(code, { output: 'done' }), fixtures, { timeoutMs: 30_000, isolation });
      expect(outcome).toEqual({ ok: true });
      // Not the 45 s the escaped sleep holds the pipes for.
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      for (const pid of processesWith(sleep)) process.kill(pid, 'SIGKILL');
    }
  });
});

describe.concurrent('runExample limits', () => {
  it('an output flood ends the example with a clear message, keeps no more than the cap and leaves nothing behind', async ({
    expect,
  }) => {
    const marker = uniqueSleep(60);
    // It waits for its child to start, so that the child is there to be ended.
    const code = `import subprocess, sys, time\nsubprocess.Popen(["sleep", "${marker}"], start_new_session=True)\ntime.sleep(1)\nwhile True: sys.stdout.write("x" * 65536)`;
    const { seen, result: outcome } = await seenWhile(
      marker,
      runExample(python(code), fixtures, { timeoutMs: 60_000, outputLimitBytes: 100_000 }),
    );
    expect(seen).toBe(true);
    expect(outcome).toEqual({ ok: false, message: 'output exceeded 100000 bytes: the check ended the example there' });
    expect(await waitUntilGone(marker)).toEqual([]);
  });

  it('a JavaScript output flood (to stderr) ends the same way', async ({ expect }) => {
    const example: CodeExample = {
      lang: 'javascript',
      code: 'for (;;) process.stderr.write("y".repeat(65536));',
      line: 1,
    };
    expect(await runExample(example, fixtures, { timeoutMs: 60_000, outputLimitBytes: 200_000 })).toEqual({
      ok: false,
      message: 'output exceeded 200000 bytes: the check ended the example there',
    });
  });

  it('a 3 GB bytearray exceeds the default memory limit (1 GiB)', async ({ expect }) => {
    const outcome = await runExample(
      python('data = bytearray(3 * 1024 ** 3)\nprint(len(data))', { output: '3221225472' }),
      fixtures,
      { timeoutMs: 60_000 },
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(/^exceeded the memory limit \(1 GiB\):\nexited with code 1:\n/);
    expect(outcome.message).toMatch(/MemoryError$/);
  });

  it('a smaller memory limit holds for the processes the example starts too', async ({ expect }) => {
    const child = 'bytearray(300 * 1024 ** 2)';
    const code = `import subprocess, sys\nresult = subprocess.run([sys.executable, "-c", "${child}"], capture_output=True, text=True)\nprint(result.stderr.strip().splitlines()[-1])`;
    expect(
      await runExample(python(code, { output: 'MemoryError' }), fixtures, {
        timeoutMs: 60_000,
        memoryLimitBytes: 256 * 1024 ** 2,
      }),
    ).toEqual({ ok: true });
  });

  it("a JavaScript example whose heap outgrows the memory limit exceeds it too (Node's heap is capped at the limit)", async ({
    expect,
  }) => {
    const example: CodeExample = {
      lang: 'javascript',
      code: 'const kept = [];\nfor (;;) kept.push(new Array(1e6).fill(1.5));',
      line: 1,
    };
    const outcome = await runExample(example, fixtures, { timeoutMs: 60_000, memoryLimitBytes: 128 * 1024 ** 2 });
    expect(outcome.ok).toBe(false);
    // (Named from Node's "JavaScript heap out of memory", which is above the last lines the message shows.)
    expect(outcome.message).toMatch(/^exceeded the memory limit \(0\.13 GiB\):\nexited with code /);
  });

  it("JavaScript can still use WebAssembly under the limit (Node's fetch() needs it)", async ({ expect }) => {
    const example: CodeExample = {
      lang: 'javascript',
      code: 'const memory = new WebAssembly.Memory({ initial: 1 });\nconsole.log(memory.buffer.byteLength);',
      line: 1,
      output: '65536',
    };
    expect(await runExample(example, fixtures, { timeoutMs: 60_000 })).toEqual({ ok: true });
  });

  it('an example cannot reach the network (where namespaces can be made; else the check warns)', async ({ expect }) => {
    const isolation = probeIsolation();
    if (isolation.kind === 'process-group') {
      expect(isolation.warning).toContain('they can reach the network');
      return;
    }
    const code =
      'import errno, socket\ntry:\n    socket.create_connection(("1.1.1.1", 53), timeout=5)\n    print("connected")\nexcept OSError as err:\n    print(errno.errorcode[err.errno])';
    expect(await runExample(python(code, { output: 'ENETUNREACH' }), fixtures, { timeoutMs: 60_000 })).toEqual({
      ok: true,
    });
    // Its own loopback works (the book's examples serve and fetch on 127.0.0.1), and is nobody else's:
    // a port this test listens on is not there.
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    try {
      const loopback = `import errno, socket\nown = socket.create_server(("127.0.0.1", 0))\nsocket.create_connection(own.getsockname(), timeout=5)\nprint("own loopback")\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=5)\nexcept OSError as err:\n    print(errno.errorcode[err.errno])`;
      expect(
        await runExample(python(loopback, { output: 'own loopback\nECONNREFUSED' }), fixtures, { timeoutMs: 60_000 }),
      ).toEqual({ ok: true });
    } finally {
      server.close();
    }
  });
});

const TESTS =
  'def add(a, b):\n    return a + b\n\ndef test_add():\n    assert add(2, 3) == 5\n\ndef test_fails():\n    assert add(2, 2) == 5\n';
const dots = (marks: string) => `${marks.padEnd(73)}[100%]`;
/** pytest takes seconds to start on a busy machine (11 s measured under a load of 23 on 2 cores). */
const PYTEST_LIMITS = { timeoutMs: 60_000 };

describe.concurrent('pytest blocks', () => {
  it('run with pytest; a failing test is output to compare, and durations do not count', async ({ expect }) => {
    const example = python(TESTS, {
      pytest: '-k add',
      title: 'test_cart.py',
      output: `${dots('.')}\n1 passed, 1 deselected in 0.42s`,
    });
    expect(await runExample(example, fixtures, PYTEST_LIMITS)).toEqual({ ok: true });
    // pytest exits 1 when a test fails; an example may show that on purpose.
    const summary = '=========================== short test summary info ============================';
    const failing = python(TESTS, {
      pytest: '--tb=no',
      output: `${dots('.F')}\n${summary}\nFAILED test_example.py::test_fails - assert 4 == 5\n1 failed, 1 passed in 9.99s`,
    });
    expect(await runExample(failing, fixtures, PYTEST_LIMITS)).toEqual({ ok: true });
  });

  it('compare the counts: a different result fails the check', async ({ expect }) => {
    const outcome = await runExample(
      python(TESTS, { pytest: '-k add', output: `${dots('.')}\n2 passed in 0.01s` }),
      fixtures,
      PYTEST_LIMITS,
    );
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
    const outcome = await runExample(
      python('print("before")\nraise KeyError("missing")', { output: 'before' }),
      fixtures,
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(/^exited with code 1:\n/);
    expect(outcome.message).toContain("KeyError: 'missing'");
  });

  it('raises="ValueError" expects that exception and compares stdout followed by its last line', async ({ expect }) => {
    const example = python('print("parsing")\nint("abc")', {
      raises: 'ValueError',
      output: "parsing\nValueError: invalid literal for int() with base 10: 'abc'",
    });
    expect(await runExample(example, fixtures)).toEqual({ ok: true });
  });

  it('raises fails when nothing is raised or something else is', async ({ expect }) => {
    const none = await runExample(python('print(1)', { raises: 'ValueError' }), fixtures);
    expect(none).toEqual({ ok: false, message: 'expected it to raise ValueError, but it finished without error' });
    const other = await runExample(python('{}["k"]', { raises: 'ValueError' }), fixtures);
    expect(other).toEqual({ ok: false, message: "expected it to raise ValueError, but it failed with: KeyError: 'k'" });
  });

  it('runs JavaScript examples with node', async ({ expect }) => {
    const example: CodeExample = {
      lang: 'javascript',
      code: 'console.log([1, 2].map((n) => n * 2));',
      line: 3,
      output: '[ 2, 4 ]',
    };
    expect(await runExample(example, fixtures)).toEqual({ ok: true });
  });

  it('runs in a fresh folder holding a copy of the book fixtures', async ({ expect }) => {
    const code =
      'import json, os\nprint([u["name"] for u in json.load(open("users.json"))])\nopen("scratch.txt", "w").write("x")';
    expect(await runExample(python(code, { output: "['ada', 'grace']" }), fixtures)).toEqual({ ok: true });
    // The example wrote into its own copy, not into the fixtures folder.
    expect(
      await runExample(python('import os\nprint(os.path.exists("scratch.txt"))', { output: 'False' }), fixtures),
    ).toEqual({ ok: true });
  });

  it('prints non-ASCII text as UTF-8', async ({ expect }) => {
    expect(await runExample(python('print("你好, Python")', { output: '你好, Python' }), fixtures)).toEqual({
      ok: true,
    });
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

describe('verdicts that hold on a busy machine', () => {
  /** The CPUs a process's threads may run on, as taskset writes them ("0-3", "0,2"). */
  const cpusOf = (pid: number) =>
    execFileSync('taskset', ['-p', '-c', String(pid)], { encoding: 'utf8' })
      .split(':')
      .at(-1)!
      .trim();
  const pinTo = (pid: number, cpus: string) => execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)]);

  /**
   * Runs `work` with this process, and so the example it starts, on one CPU that `count` processes
   * keep busy: the example gets at most a 1/(count + 1) share of it, whatever the machine's cores
   * and load. Each hog is a session of its own, as the example is (it runs detached): where the
   * kernel shares CPU time between sessions (autogroups) rather than between processes, hogs left
   * in this session would weigh as one process, and beside them the example got a whole core of a
   * two-core machine.
   */
  async function onBusyCpu<T>(count: number, work: () => Promise<T>): Promise<T> {
    const cpus = cpusOf(process.pid);
    pinTo(process.pid, cpus.split(/[,-]/)[0]);
    const hogs = Array.from({ length: count }, () =>
      spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore', detached: true }),
    );
    try {
      return await work();
    } finally {
      for (const hog of hogs) hog.kill('SIGKILL');
      pinTo(process.pid, cpus);
    }
  }

  // Three busy processes beside it: the example gets a quarter of the CPU or less.
  const HOGS = 3;
  // About 1.5 s of CPU: beside the hogs it takes 6 s or more by the clock.
  const busyWork =
    'import time\nstart = time.process_time()\nwhile time.process_time() - start < 1.5:\n    pass\nprint("done")';

  it('an example within its CPU time passes however long the busy machine makes it take by the clock', async () => {
    const started = Date.now();
    const outcome = await onBusyCpu(HOGS, () =>
      runExample(python(busyWork, { output: 'done' }), fixtures, { cpuTimeMs: 3000, timeoutMs: 180_000 }),
    );
    expect(outcome).toEqual({ ok: true });
    // It did take longer by the clock than its CPU limit: a clock limit would have failed it.
    expect(Date.now() - started).toBeGreaterThan(3000);
  });

  it('an example that never ends still ends at its CPU time on a busy machine', async () => {
    const outcome = await onBusyCpu(HOGS, () =>
      runExample(python('while True:\n    pass'), fixtures, { cpuTimeMs: 2000, timeoutMs: 180_000 }),
    );
    expect(outcome).toEqual({ ok: false, message: 'used more than 2 s of CPU time' });
  });
});
