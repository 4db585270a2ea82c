import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserRuntime } from '../../src/runner/node/runtimes.js';
import type { RunResult } from '../../src/runner/shared/outcome.js';

/**
 * The page's Python keeps its interpreter warm between runs (runner/client/runtimes.ts), which is
 * right only if every run starts from the same state whatever the run before it did. Here the
 * runs before are generated: any mix of the ways a program changes an interpreter's state, in any
 * order, and the next run must see exactly what a run saw before any of them. The runtime is the
 * one `pybook check` uses, with the page's own worker and harness.
 */
let python: BrowserRuntime;
let fixtures: string;

beforeAll(async () => {
  fixtures = await mkdtemp(path.join(os.tmpdir(), 'pybook-fresh-runs-'));
  python = new BrowserRuntime('python', fixtures);
  await python.start();
});
afterAll(async () => {
  python?.close();
  await rm(fixtures, { recursive: true, force: true });
});

async function run(code: string): Promise<RunResult> {
  const result = await python.run(code, 'example.py', 30_000);
  if (typeof result === 'string') throw new Error(`ended at its ${result}:\n${code}`);
  return result;
}

/** Ways a program changes the interpreter it runs in (each a few lines of Python). */
const CHANGES = {
  rebindBuiltin: 'import builtins\nbuiltins.len = lambda x: 0\nbuiltins.print = builtins.print',
  newBuiltin: 'import builtins\nbuiltins.leftover = 42',
  deleteBuiltin: 'import builtins\ndel builtins.sorted',
  rebindStdlib:
    'import json, os.path, re\njson.dumps = lambda *a, **k: "patched"\nos.path.join = None\nre.compile = None',
  newModuleAttribute: 'import os\nos.leftover = 1',
  sysState:
    'import sys\nsys.path.insert(0, "/nowhere")\nsys.setrecursionlimit(77)\nsys.argv.append("x")\nsys.ps1 = "$ "\nsys.dont_write_bytecode = True',
  streams: 'import io, sys\nsys.stdout = io.StringIO()\nsys.stderr = io.StringIO()\nsys.stdin = io.StringIO("fake")',
  environment: 'import os\nos.environ["LEFTOVER"] = "1"\nos.environ.pop("HOME", None)',
  workingFolder: 'import os\nopen("left.txt", "w").write("x")\nos.makedirs("sub", exist_ok=True)\nos.chdir("sub")',
  logging: 'import logging\nlogging.basicConfig(level=logging.DEBUG)\nlogging.getLogger("app").setLevel(logging.ERROR)',
  warnings: 'import warnings\nwarnings.simplefilter("error")',
  modules: 'import sys, types\nsys.modules["phantom"] = types.ModuleType("phantom")\nimport fractions\nfractions.x = 1',
  atexit: 'import atexit\natexit.register(print, "from an earlier run")',
  raises: 'raise RuntimeError("the run fails")',
  exits: 'raise SystemExit(3)',
  recursion: 'def f(n):\n    return f(n + 1)\ntry:\n    f(0)\nexcept RecursionError:\n    pass',
};
type Change = keyof typeof CHANGES;

/** What a run sees of the interpreter's state; identities too, which a warm interpreter keeps between runs. */
const FINGERPRINT = String.raw`
import builtins, json, logging, os, re, sys, warnings
import os.path
state = {
    "builtins": sorted(builtins.__dict__),
    "identities": [id(builtins.len), id(builtins.print), id(json.dumps), id(os.path.join), id(re.compile), id(sys.stdout), id(sys.stderr), id(sys.stdin)],
    "os": sorted(vars(os)),
    # The run's own folder is first, named by its number (/tmp/pybook-run-7).
    "path": [re.sub(r"pybook-run-\d+$", "pybook-run-N", entry) for entry in sys.path],
    "argv": sys.argv,
    "recursion": sys.getrecursionlimit(),
    "ps1": hasattr(sys, "ps1"),
    "bytecode": sys.dont_write_bytecode,
    "environment": sorted(os.environ.items()),
    "folder": sorted(os.listdir(".")),
    "logging": [len(logging.getLogger().handlers), logging.getLogger().level, sorted(logging.Logger.manager.loggerDict)],
    "warnings": len(warnings.filters),
    "modules": sorted(name for name in sys.modules if name != "__main__"),
    "stdin": sys.stdin.read(),
}
print(json.dumps(state))
`;

const fingerprint = async () => {
  const result = await run(FINGERPRINT);
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as Record<string, unknown>;
};

describe('a warm interpreter gives every run a fresh start', () => {
  it('whatever the runs before it changed, in any order, the next run sees the state the first one saw', async () => {
    const start = await fingerprint();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...(Object.keys(CHANGES) as Change[])), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        async (changes, inOneRun) => {
          // Either all in one program or one program each: both are ways a reader runs code.
          const programs = inOneRun
            ? [changes.map((c) => `try:\n${indent(CHANGES[c])}\nexcept BaseException:\n    pass`).join('\n')]
            : changes.map((c) => CHANGES[c]);
          for (const program of programs) await run(program);
          expect(await fingerprint()).toEqual(start);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a run that reaches JavaScript (js, pyodide) is the last in its interpreter: the next gets a new one', async () => {
    /** The run's number in its interpreter, from its working folder (/tmp/pybook-run-<n>). */
    const runNumber = async () =>
      Number(/pybook-run-(\d+)/.exec((await run('import os\nprint(os.getcwd())')).stdout)?.[1]);
    const before = await runNumber();
    expect(await runNumber()).toBe(before + 1); // the same interpreter, one run later
    // During a run the modules that lead to JavaScript are out of sys.modules: looking is reaching nothing.
    expect((await run('import sys\nprint(sys.modules.get("pyodide_js"), "pyodide" in sys.modules)')).stdout).toBe(
      'None False\n',
    );
    expect(await runNumber()).toBeGreaterThan(before + 1);
    for (const reach of ['import js', 'from pyodide.code import run_js', 'import pyodide_js', 'import _pyodide']) {
      await run(reach);
      // A new interpreter counts its runs from 1 again.
      expect(await runNumber(), reach).toBe(1);
    }
  });
});

const indent = (code: string) =>
  code
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
