/**
 * `pybook export` of both locales in both formats, as a child process: wall time around it, and
 * CPU time (user + system of the process and everything it waited for, Chromium's processes
 * included) and peak memory from GNU time. `npm run bench` reports it beside the cold build;
 * export is never part of a build's default path.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { root } from './build-bench.js';

export interface ExportFigures {
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  files: Array<{ name: string; bytes: number }>;
  loadAverage: [number, number];
}

export function benchExport(): ExportFigures {
  const out = mkdtempSync(path.join(os.tmpdir(), 'pybook-bench-export-'));
  const timeFile = path.join(out, '..', `pybook-bench-export-time-${process.pid}.txt`);
  const before = os.loadavg()[0];
  const started = performance.now();
  const run = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%U %S %M',
      '-o',
      timeFile,
      process.execPath,
      'bin/pybook.js',
      'export',
      '--out-dir',
      path.join(out, 'exports'),
    ],
    { cwd: root, encoding: 'utf8' },
  );
  const wallMs = Math.round(performance.now() - started);
  try {
    if (run.status !== 0) throw new Error(`pybook export failed: ${run.stderr}`);
    const [user, system, rssKb] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
    const dir = path.join(out, 'exports');
    const files = readdirSync(dir)
      .filter((name) => !name.startsWith('.'))
      .map((name) => ({ name, bytes: statSync(path.join(dir, name)).size }));
    return {
      wallMs,
      cpuMs: Math.round((user + system) * 1000),
      peakRssMb: Math.round(rssKb / 1024),
      files,
      loadAverage: [Math.round(before * 100) / 100, Math.round(os.loadavg()[0] * 100) / 100],
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(timeFile, { force: true });
  }
}
