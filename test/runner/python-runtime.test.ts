import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserRuntime } from '../../src/runner/node/runtimes.js';
import type { RunResult } from '../../src/runner/shared/outcome.js';
import { precompressedPyodide } from '../../src/runner/build/pyodide-precompressed.js';

/**
 * Pyodide as `pybook check` runs it (the same PythonSession as the page's worker), in its child
 * process. One runtime for the whole file: starting Pyodide takes seconds.
 */
let fixtures: string;
let python: BrowserRuntime;
const USERS = '[{"name": "ada"}, {"name": "grace"}]';

beforeAll(async () => {
  fixtures = await mkdtemp(path.join(os.tmpdir(), 'pybook-pyodide-fixtures-'));
  await writeFile(path.join(fixtures, 'users.json'), USERS);
  python = new BrowserRuntime('python', fixtures);
  await python.start();
});
afterAll(async () => {
  python?.close();
  await rm(fixtures, { recursive: true, force: true });
});

async function run(code: string, timeoutMs = 20_000): Promise<RunResult> {
  const result = await python.run(code, 'example.py', timeoutMs);
  if (typeof result === 'string') throw new Error(`ended at its ${result} (limit ${timeoutMs} ms):\n${code}`);
  return result;
}

/** These tests start Pyodide again: a cold start can take a minute on a busy machine. */
const RESTART_TIMEOUT_MS = 240_000;

const lastLine = (text: string) => text.trimEnd().split('\n').slice(-1)[0];

describe('Pyodide runs an example like python3 example.py', () => {
  it('reports a Python 3 version when it starts', async () => {
    expect(await python.start()).toMatch(/^3\.\d+\.\d+$/);
  });

  it('imports the standard library the site serves: with bytecode when `npm run prepare` made it, as in the page', async () => {
    const served = precompressedPyodide().get('python_stdlib.zip')?.replacement;
    const result = await run(
      'import json, xml.dom.minidom as m\nprint(json.__file__.rsplit(".", 1)[1], m.__file__.rsplit(".", 1)[1])',
    );
    expect(result.stdout).toBe(served ? 'pyc py\n' : 'py py\n');
  });

  it('prints to stdout and exits with status 0', async () => {
    expect(await run('print("hello")\nprint(1 + 1, "two", sep=", ")')).toEqual({
      status: 0,
      stdout: 'hello\n2, two\n',
      stderr: '',
    });
  });

  it('an exception gives status 1 and a traceback that ends with the error and names example.py', async () => {
    const result = await run('def check(n):\n    raise ValueError(f"bad {n}")\n\nprint("before")\ncheck(7)');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('before\n');
    expect(result.stderr.split('\n')[0]).toBe('Traceback (most recent call last):');
    expect(lastLine(result.stderr)).toBe('ValueError: bad 7');
    expect(result.stderr).toContain('File "example.py", line 5, in <module>');
    expect(result.stderr).toContain('File "example.py", line 2, in check');
    // The harness's own frame is not the reader's program.
    expect(result.stderr).not.toMatch(/run_example|<exec>|pybook-run/);
  });

  it('SystemExit: its code is the status, and a message goes to stderr with status 1', async () => {
    expect(await run('print("leaving")\nraise SystemExit(3)')).toEqual({ status: 3, stdout: 'leaving\n', stderr: '' });
    expect(await run('import sys\nsys.exit("msg")')).toEqual({ status: 1, stdout: '', stderr: 'msg\n' });
    expect(await run('import sys\nsys.exit()')).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(await run('import sys\nsys.exit(0)\nprint("not reached")')).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('reads a fixture file from the working folder', async () => {
    const result = await run(
      'import json, os\nwith open("users.json", encoding="utf-8") as f:\n    print([u["name"] for u in json.load(f)])\nprint(sorted(os.listdir(".")))',
    );
    expect(result).toEqual({ status: 0, stdout: "['ada', 'grace']\n['example.py', 'users.json']\n", stderr: '' });
  });

  it('input() meets the end of the input (EOFError)', async () => {
    expect(await run('try:\n    input()\nexcept EOFError:\n    print("no input")')).toEqual({
      status: 0,
      stdout: 'no input\n',
      stderr: '',
    });
    const uncaught = await run('name = input()');
    expect(uncaught.status).toBe(1);
    expect(lastLine(uncaught.stderr)).toBe('EOFError: EOF when reading a line');
  });

  it('asyncio.run with asyncio.sleep, and time.sleep, block as they do in python3', async () => {
    const asyncCode = [
      'import asyncio',
      'async def say(text, delay):',
      '    await asyncio.sleep(delay)',
      '    print(text)',
      '    return text',
      'async def main():',
      '    results = await asyncio.gather(say("slow", 0.15), say("fast", 0.05))',
      '    print(results)',
      'asyncio.run(main())',
    ].join('\n');
    let started = performance.now();
    expect(await run(asyncCode)).toEqual({ status: 0, stdout: "fast\nslow\n['slow', 'fast']\n", stderr: '' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);

    started = performance.now();
    const sleeping = await run(
      'import time\nstart = time.monotonic()\ntime.sleep(0.3)\nprint(time.monotonic() - start >= 0.29)',
    );
    expect(sleeping).toEqual({ status: 0, stdout: 'True\n', stderr: '' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });
});

describe('each run starts fresh', () => {
  it('a module imported by one run is not in the next', async () => {
    expect(
      await run('import fractions\nfractions.marker = "left over"\nprint(fractions.Fraction(1, 3))'),
    ).toMatchObject({ status: 0, stdout: '1/3\n' });
    expect(
      await run('import sys\nprint("fractions" in sys.modules)\nimport fractions\nprint(hasattr(fractions, "marker"))'),
    ).toEqual({ status: 0, stdout: 'False\nFalse\n', stderr: '' });
  });

  it('a module the program wrote and imported is gone, and a new one of that name is imported afresh', async () => {
    expect(
      await run('with open("helper.py", "w") as f:\n    f.write("VALUE = 1\\n")\nimport helper\nprint(helper.VALUE)'),
    ).toMatchObject({ status: 0, stdout: '1\n' });
    const missing = await run('import helper');
    expect(missing.status).toBe(1);
    expect(lastLine(missing.stderr)).toBe("ModuleNotFoundError: No module named 'helper'");
    expect(
      await run('with open("helper.py", "w") as f:\n    f.write("VALUE = 2\\n")\nimport helper\nprint(helper.VALUE)'),
    ).toEqual({ status: 0, stdout: '2\n', stderr: '' });
  });

  it('os.environ changes are undone', async () => {
    const before = await run('import os\nprint(os.environ.get("HOME"), os.environ.get("PYBOOK_LEFTOVER"))');
    expect(before.stdout).toMatch(/^\S+ None\n$/);
    await run('import os\nos.environ["PYBOOK_LEFTOVER"] = "yes"\ndel os.environ["HOME"]');
    expect(await run('import os\nprint(os.environ.get("HOME"), os.environ.get("PYBOOK_LEFTOVER"))')).toEqual(before);
  });

  it("the working folder's files are not carried over, and the fixtures are copied afresh", async () => {
    const first = await run(
      'import os\nwith open("notes.txt", "w") as f:\n    f.write("x")\nwith open("users.json", "w") as f:\n    f.write("changed")\nprint(sorted(os.listdir(".")))',
    );
    expect(first.stdout).toBe("['example.py', 'notes.txt', 'users.json']\n");
    expect(await run('import os\nprint(sorted(os.listdir(".")))\nprint(open("users.json").read())')).toEqual({
      status: 0,
      stdout: `['example.py', 'users.json']\n${USERS}\n`,
      stderr: '',
    });
  });

  it(
    'a file made, changed or deleted anywhere outside the run folder is never seen by the next run (generated paths)',
    async () => {
      // What a run sees of the file system outside its own folder, as the next run would report it.
      const VIEW = [
        'import hashlib, os',
        'seen = []',
        "for root, dirs, files in os.walk('/'):",
        "    if root == '/':",
        "        dirs[:] = [d for d in dirs if d not in ('dev', 'proc', 'sys')]",
        "    dirs[:] = [d for d in dirs if not d.startswith('pybook-run-')]",
        '    for name in sorted(dirs + files):',
        '        path = os.path.join(root, name)',
        '        seen.append(path + (":" + open(path, "rb").read().hex() if os.path.isfile(path) else "/"))',
        "print(len(seen), hashlib.sha256('\\n'.join(sorted(seen)).encode()).hexdigest())",
      ].join('\n');
      const before = (await run(VIEW)).stdout;
      const folder = fc.constantFrom('/tmp', '/home/pyodide', '/home/pyodide/fixtures', '/lib', '/', '/home');
      const name = fc.stringMatching(/^[a-z][a-z0-9_.-]{0,11}$/);
      const change = fc.oneof(
        fc.record({ op: fc.constant('write'), folder, name }),
        fc.record({ op: fc.constant('mkdir'), folder, name }),
        fc.record({
          op: fc.constantFrom('overwrite', 'delete', 'rename'),
          folder: fc.constant('/home/pyodide/fixtures'),
          name: fc.constant('users.json'),
        }),
      );
      await fc.assert(
        fc.asyncProperty(change, async ({ op, folder, name }) => {
          const target = `${folder.replace(/\/$/, '')}/${name}`;
          const code = {
            write: `open(${JSON.stringify(target)}, "w").write("planted")`,
            mkdir: `import os\nos.makedirs(${JSON.stringify(target)}, exist_ok=True)`,
            overwrite: `open(${JSON.stringify(target)}, "w").write("changed")`,
            delete: `import os\nos.remove(${JSON.stringify(target)})`,
            rename: `import os\nos.rename(${JSON.stringify(target)}, ${JSON.stringify(target + '.old')})`,
          }[op];
          const result = await run(`try:\n${code.replace(/^/gm, '    ')}\nexcept OSError as error:\n    print(error)`);
          expect(result.status, result.stderr).toBe(0);
          expect((await run(VIEW)).stdout).toBe(before);
        }),
        { numRuns: 12 },
      );
    },
    RESTART_TIMEOUT_MS * 2,
  );

  it('logging.basicConfig of one run does not configure the next', async () => {
    expect(
      await run(
        'import logging\nlogging.basicConfig(level=logging.DEBUG, format="first: %(message)s")\nlogging.debug("one")',
      ),
    ).toEqual({ status: 0, stdout: '', stderr: 'first: one\n' });
    // Were the root logger still configured, basicConfig would do nothing and debug would show.
    expect(
      await run(
        'import logging\nlogging.basicConfig(format="second: %(message)s")\nlogging.debug("hidden")\nlogging.warning("two")',
      ),
    ).toEqual({ status: 0, stdout: '', stderr: 'second: two\n' });
  });

  it('a replaced sys.stdout, new builtins and sys.path entries are undone; atexit handlers run at the end', async () => {
    const first = await run(
      'import atexit, builtins, io, sys\nbuiltins.leftover = 1\nsys.path.append("/zzz")\natexit.register(lambda: print("bye"))\nprint("hi")\nsys.stdout = io.StringIO()\nprint("swallowed")',
    );
    // python3 prints "bye" at exit through the replaced stream, so nothing of it shows: the same here.
    expect(first).toEqual({ status: 0, stdout: 'hi\n', stderr: '' });
    expect(await run('import atexit\natexit.register(lambda: print("bye"))\nprint("hi")')).toEqual({
      status: 0,
      stdout: 'hi\nbye\n',
      stderr: '',
    });
    expect(await run('import builtins, sys\nprint(hasattr(builtins, "leftover"), "/zzz" in sys.path)')).toEqual({
      status: 0,
      stdout: 'False False\n',
      stderr: '',
    });
  });

  it('import this prints the Zen every time', async () => {
    for (let i = 0; i < 2; i++) {
      const result = await run('import this');
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/^The Zen of Python, by Tim Peters\n\nBeautiful is better than ugly\.\n/);
    }
  });
});

describe('a runaway example', () => {
  it(
    'returns timeout within the limit, and the next run works again',
    async () => {
      const limit = 2500;
      const started = performance.now();
      const result = await python.run('while True:\n    pass', 'example.py', limit);
      const elapsed = performance.now() - started;
      expect(result).toBe('timeout');
      expect(elapsed).toBeGreaterThanOrEqual(limit - 50);
      expect(elapsed).toBeLessThan(limit + 2000);
      // A fresh interpreter: nothing of the killed one, and it still has the fixtures.
      expect(await run('print("again")\nprint(open("users.json").read())')).toEqual({
        status: 0,
        stdout: `again\n${USERS}\n`,
        stderr: '',
      });
    },
    RESTART_TIMEOUT_MS,
  );
});

describe('an output flood', () => {
  it(
    'ends at the output limit (no RangeError from a string grown past what V8 allows), and the next run works',
    async () => {
      expect(
        await python.run('import sys\nwhile True:\n    sys.stdout.write("x" * 65536)', 'example.py', 120_000),
      ).toBe('output-limit');
      // Even when the program swallows the error its writes raise past the limit.
      expect(
        await python.run(
          'import sys\nfor _ in range(100):\n    try:\n        sys.stderr.write("y" * 65536)\n    except OSError:\n        pass\nprint("survived")',
          'example.py',
          120_000,
        ),
      ).toBe('output-limit');
      expect(await run('print("again")')).toEqual({ status: 0, stdout: 'again\n', stderr: '' });
    },
    RESTART_TIMEOUT_MS,
  );
});
