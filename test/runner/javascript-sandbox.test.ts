import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { formatWithOptions } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeIsolation } from '../../src/confine/isolation.js';
import { BrowserRuntime } from '../../src/runner/node/runtimes.js';
import type { RunResult } from '../../src/runner/shared/outcome.js';

/**
 * The page's JavaScript sandbox (the sandbox-worker bundle) as `pybook check` runs it: in a
 * fresh `vm` context per example, in one child process for the whole file.
 */
let dir: string;
let sandbox: BrowserRuntime;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pybook-sandbox-'));
  sandbox = new BrowserRuntime('javascript', dir);
  await sandbox.start();
});
afterAll(async () => {
  sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

async function run(code: string, timeoutMs = 10_000): Promise<RunResult> {
  const result = await sandbox.run(code, 'example.mjs', timeoutMs);
  if (typeof result === 'string') throw new Error(`ended at its ${result} (limit ${timeoutMs} ms):\n${code}`);
  return result;
}

/** Stack frames name where the code ran (the test file here, the sandbox's bundle there): only their presence is compared. */
const withoutFrames = (text: string) =>
  text
    .split('\n')
    .map((line) => (/^\s+at /.test(line) ? (line.endsWith(' {') ? '    at … {' : '    at …') : line))
    .filter((line, i, lines) => !(line === '    at …' && lines[i - 1] === '    at …'))
    .join('\n');

const PRELUDE = [
  'class Point { constructor(x, y) { this.x = x; this.y = y; } }',
  'class Empty {}',
  'const circular = { name: "loop" }; circular.self = circular;',
].join('\n');

/** console.log's arguments, as source: evaluated here for Node's own util, and printed by the sandbox. */
const LOGGED: string[] = [
  '{ a: { b: { c: { d: 1 } } }, list: [1, 2] }',
  '[1, [2, [3, [4, [5]]]]], []',
  'Array.from({ length: 120 }, (_, i) => i)',
  '[{ name: "ada", langs: ["python", "javascript"], born: 1815 }, { name: "grace", langs: ["cobol"], born: 1906 }]',
  'new Map([[1, { x: 1 }], ["key", [1, 2]]]), new Map()',
  'new Set(["a", 1, { b: 2 }]), new Set()',
  'new Point(1, 2), new Empty(), Point',
  '"%s is %d years old", "Ada", 36',
  '"%s and %s", "only one"',
  '"%i %f %j %o %O %%", 3.9, "2.5", { a: 1 }, [1], { b: 2 }',
  '"%d", 10n',
  'new Error("boom")',
  '(() => { const e = new TypeError("bad"); e.code = "E_BAD"; return e; })()',
  '{ error: new RangeError("inner") }',
  'undefined, null, [undefined, null], { u: undefined }',
  'Symbol("tag"), Symbol.iterator, Symbol()',
  '10n, -5n, [1n]',
  '"plain", 1, -0, NaN, 1e21, true',
  '{ s: "it\'s", t: \'say "hi"\', multi: "a\\nb" }',
  'circular',
  'Object.create(null), { __proto__: null, a: 1 }',
  'new Uint8Array([1, 2, 3]), new Date(0), /re/gi',
  'function named() {}, () => 1, async function af() {}, function* gen() {}',
  '"x".repeat(200)',
  '{ get g() { return 1; }, set s(v) {} }',
];

describe('console prints what Node prints', () => {
  it.each(LOGGED)('console.log(%s)', async (args) => {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- Node evaluates the same source, for the output to compare with
    const values = (new Function(`${PRELUDE}\nreturn [${args}];`) as () => unknown[])();
    const expected = `${formatWithOptions({}, ...values)}\n`;
    const result = await run(`${PRELUDE}\nconsole.log(${args});`);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(withoutFrames(result.stdout)).toBe(withoutFrames(expected));
  });

  it('console.error and console.warn go to stderr, console.log and console.info to stdout', async () => {
    expect(
      await run('console.log("out", 1)\nconsole.error("err", { a: 1 })\nconsole.info("info")\nconsole.warn("warn")'),
    ).toEqual({ status: 0, stdout: 'out 1\ninfo\n', stderr: 'err { a: 1 }\nwarn\n' });
  });
});

describe('the program runs like node example.mjs', () => {
  it('may use top-level await', async () => {
    const code =
      'console.log("before")\nconst value = await new Promise((resolve) => setTimeout(() => resolve(42), 20))\nconsole.log("after", value)';
    expect(await run(code)).toEqual({ status: 0, stdout: 'before\nafter 42\n', stderr: '' });
  });

  it('runs setTimeout callbacks in order, and ends only when no timer is left', async () => {
    const code = [
      'setTimeout(() => console.log("c"), 40)',
      'setTimeout(() => { console.log("a"); setTimeout(() => console.log("last"), 150) }, 0)',
      'setTimeout((word) => console.log(word), 15, "b")',
      'const cancelled = setTimeout(() => console.log("cancelled"), 5)',
      'clearTimeout(cancelled)',
      'console.log("sync")',
    ].join('\n');
    const started = performance.now();
    expect(await run(code)).toEqual({ status: 0, stdout: 'sync\na\nb\nc\nlast\n', stderr: '' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
  });

  it('a timeout cleared before it fires does not keep the run going', async () => {
    const started = performance.now();
    expect(
      await run('const t = setTimeout(() => console.log("never"), 60_000)\nclearTimeout(t)\nconsole.log("done")'),
    ).toEqual({ status: 0, stdout: 'done\n', stderr: '' });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('a setInterval cleared after N ticks ends the run', async () => {
    const code =
      'let n = 0\nconst id = setInterval((step) => {\n  n += step\n  console.log("tick", n)\n  if (n === 3) clearInterval(id)\n}, 5, 1)';
    expect(await run(code, 5_000)).toEqual({ status: 0, stdout: 'tick 1\ntick 2\ntick 3\n', stderr: '' });
  });

  it("has none of Node's or the page's objects", async () => {
    expect(
      await run(
        'console.log(typeof process, typeof require, typeof Buffer, typeof document, typeof window, typeof module)',
      ),
    ).toEqual({ status: 0, stdout: 'undefined undefined undefined undefined undefined undefined\n', stderr: '' });
    const result = await run('console.log(process.argv.length)');
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('Uncaught ReferenceError: process is not defined\n');
  });

  it('each run is a fresh realm', async () => {
    await run('globalThis.leftover = 1\nArray.prototype.extra = () => "patched"');
    expect(await run('console.log(typeof leftover, typeof [].extra)')).toEqual({
      status: 0,
      stdout: 'undefined undefined\n',
      stderr: '',
    });
  });
});

describe('how a failing program ends', () => {
  it('an uncaught error: status 1 and "Uncaught TypeError: …" on stderr, after what it printed', async () => {
    expect(await run('console.log("start")\nconst user = null\nuser.name')).toEqual({
      status: 1,
      stdout: 'start\n',
      stderr: "Uncaught TypeError: Cannot read properties of null (reading 'name')\n",
    });
  });

  it('an error thrown in a timer callback ends the run', async () => {
    expect(
      await run(
        'setTimeout(() => { throw new RangeError("in a timer") }, 5)\nsetTimeout(() => console.log("never"), 300)',
      ),
    ).toEqual({ status: 1, stdout: '', stderr: 'Uncaught RangeError: in a timer\n' });
  });

  it('an unhandled promise rejection ends the run with status 1', async () => {
    expect(await run('Promise.reject(new Error("nope"))')).toEqual({
      status: 1,
      stdout: '',
      stderr: 'Uncaught Error: nope\n',
    });
    // Even with a timer still waiting, as node would stop.
    expect(
      await run(
        'async function fail() { throw new Error("async nope") }\nfail()\nsetTimeout(() => console.log("never"), 500)',
      ),
    ).toEqual({ status: 1, stdout: '', stderr: 'Uncaught Error: async nope\n' });
  });

  it('an error thrown in a queueMicrotask callback ends the run with status 1, as in Node', async () => {
    const result = await run('queueMicrotask(() => { throw new Error("micro") })');
    expect(result).toMatchObject({ status: 1, stdout: '' });
    expect(result.stderr).toMatch(/^Uncaught Error: micro/);
  });

  it("the realm's own constructors: no way back to Node through them", async () => {
    expect(
      (
        await run(
          'console.log(URL.constructor("return typeof process")(), new TextEncoder().encode("hi") instanceof Uint8Array, structuredClone([1]) instanceof Array)',
        )
      ).stdout,
    ).toBe('undefined true true\n');
  });

  it('a syntax error gives status 1', async () => {
    const result = await run('console.log("never")\nconst = 1');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Uncaught SyntaxError: /);
  });

  it('module imports fail', async () => {
    const result = await run('import fs from "node:fs"\nconsole.log(typeof fs.readFileSync)');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Uncaught SyntaxError: .*import/);
    const dynamic = await run('const fs = await import("node:fs")\nconsole.log(typeof fs.readFileSync)');
    expect(dynamic.status).toBe(1);
    expect(dynamic.stdout).toBe('');
  });

  it('an output flood ends at the output limit instead of growing a string until the host fails, and the next run works', async () => {
    expect(await sandbox.run('for (;;) console.log("x".repeat(65536));', 'example.mjs', 120_000)).toBe('output-limit');
    expect(await run('console.log("after")')).toEqual({ status: 0, stdout: 'after\n', stderr: '' });
  });

  it('an endless loop gives timeout within the limit, and the next run works', async () => {
    const limit = 1500;
    const started = performance.now();
    expect(await sandbox.run('while (true) {}', 'example.mjs', limit)).toBe('timeout');
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(limit - 50);
    expect(elapsed).toBeLessThan(limit + 2000);
    expect(await run('console.log("again")')).toEqual({ status: 0, stdout: 'again\n', stderr: '' });
  });
});

describe('a runtime host started confined (how `pybook check` starts them)', () => {
  it('runs in network and PID namespaces of its own where namespaces can be made, and still runs examples', async () => {
    const isolation = probeIsolation();
    const isolated = new BrowserRuntime('javascript', dir, { isolation });
    try {
      await isolated.start();
      // The host is a Node process somewhere below the launcher the check started.
      const node = descendantsOf(isolated.pid!).find(
        (pid) => readlinkSync(`/proc/${pid}/exe`) === readlinkSync('/proc/self/exe'),
      );
      expect(node).toBeDefined();
      const namespaces = (pid: number | string) =>
        ['net', 'pid'].map((kind) => readlinkSync(`/proc/${pid}/ns/${kind}`));
      if (isolation.kind === 'process-group') expect(namespaces(node!)).toEqual(namespaces('self'));
      else for (const [i, own] of namespaces(node!).entries()) expect(own).not.toBe(namespaces('self')[i]);
      expect(await isolated.run('console.log("isolated")', 'example.mjs', 30_000)).toEqual({
        status: 0,
        stdout: 'isolated\n',
        stderr: '',
      });
    } finally {
      isolated.close();
    }
  });
});

/** Every process below `pid` (from outside its namespaces: the host's pids). */
function descendantsOf(pid: number): number[] {
  const children = (of: number): number[] => {
    try {
      return readdirSync(`/proc/${of}/task`).flatMap((tid) =>
        readFileSync(`/proc/${of}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
      );
    } catch {
      return [];
    }
  };
  const found: number[] = [];
  for (let queue = [pid]; queue.length;) {
    const next = children(queue.shift()!);
    found.push(...next);
    queue.push(...next);
  }
  return found;
}
