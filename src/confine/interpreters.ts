import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface PythonInfo {
  command: string;
  version?: string;
  hasPytest: boolean;
  /** The interpreter's own file (sys.executable), when the command is a launcher such as pyenv's shim. */
  executable?: string;
  /**
   * What the interpreter reads (its prefixes and every folder on its sys.path, its user site
   * included): the sandbox shows exactly these of the host, read-only.
   */
  readable: string[];
}

const PROBE = `import json, sys
try:
    import pytest
    has_pytest = True
except ImportError:
    has_pytest = False
print(json.dumps({
    "version": sys.version.split()[0],
    "executable": sys.executable,
    "paths": [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, *[p for p in sys.path if p]],
    "pytest": has_pytest,
}))`;

const known = new Map<string, PythonInfo>();

/** Which Python a check runs with, what it reads, and whether it can run pytest blocks (asked once per command). */
export function probePython(command = 'python3'): PythonInfo {
  const cached = known.get(command);
  if (cached) return cached;
  const info = askPython(command);
  known.set(command, info);
  return info;
}

/**
 * Runs the probe, unconfined, so in a working folder of its own: `-c` puts the working folder first
 * on sys.path, and in the project, or in a shared one such as /tmp, a grp.py or json.py left there
 * would be imported before the standard library's (and run). A folder made now, private and
 * empty, holds nothing to import.
 */
export function askPython(command: string): PythonInfo {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'pybook-probe-'));
  let result: SpawnSyncReturns<string>;
  try {
    result = spawnSync(command, ['-c', PROBE], { encoding: 'utf8', timeout: 30_000, cwd });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
  let info: PythonInfo = { command, hasPytest: false, readable: [] };
  try {
    const probed = JSON.parse(result.stdout) as {
      version: string;
      executable: string;
      paths: string[];
      pytest: boolean;
    };
    if (result.status === 0) {
      const commandFile = path.isAbsolute(command) && existsSync(command) ? [realpathSync(command)] : [];
      info = {
        command,
        version: probed.version,
        hasPytest: probed.pytest,
        ...(probed.executable ? { executable: probed.executable } : {}),
        readable: [...commandFile, probed.executable, ...probed.paths].filter((p) => p && path.isAbsolute(p)),
      };
    }
  } catch {
    // not a Python (or one that failed to start): the check says so
  }
  return info;
}

/** What this Node reads (its installation, when it is not a system folder's): for the JavaScript examples and the runtime hosts. */
export function nodeReadable(): string[] {
  const real = realpathSync(process.execPath);
  // <prefix>/bin/node: the prefix holds its own libraries and headers.
  return [path.dirname(path.dirname(real))];
}

/** The PATH an example gets: its interpreter's folder first, then the system's. */
export function examplePath(interpreter: string): string {
  const dirs = [path.dirname(interpreter), '/usr/local/bin', '/usr/bin', '/bin'];
  return [...new Set(dirs)].join(':');
}
