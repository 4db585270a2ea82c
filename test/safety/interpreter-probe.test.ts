import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askPython } from '../../src/confine/interpreters.js';

/**
 * pybook asks the Python it runs examples with what it is (version, pytest, what it reads): that
 * probe runs unconfined, before any sandbox exists. A module planted where the probe runs, in the
 * temporary folder every user shares, must never be imported: for each module the probe's imports
 * reach, a folder standing for /tmp holds a same-named file that leaves a mark and fails.
 */
const REACHED = ['json', 'pytest', 'pathlib', 'grp', 're', 'enum', 'inspect', 'textwrap', 'contextlib', 'typing'];

describe('the interpreter probe imports nothing from the shared temporary folder', () => {
  const tmpdir = process.env.TMPDIR;
  const folders: string[] = [];
  afterEach(() => {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it.each(REACHED)('a planted %s.py is not run, and the probe still reads the version', (name) => {
    const shared = mkdtempSync(path.join(os.tmpdir(), 'pybook-shared-tmp-'));
    folders.push(shared);
    const mark = path.join(shared, 'ran');
    writeFileSync(
      path.join(shared, `${name}.py`),
      `open(${JSON.stringify(mark)}, "w").write("${name}")\nraise SystemExit(3)\n`,
    );
    process.env.TMPDIR = shared; // os.tmpdir() is this folder now, as /tmp is for everyone
    const info = askPython('python3');
    expect(existsSync(mark), `${name}.py ran`).toBe(false);
    expect(info.version).toMatch(/^3\./);
  });
});
