import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadPyodide } from 'pyodide';
import { describe, expect, it } from 'vitest';
import { pyodideFolder } from '../../src/runner/build/browser-check-file.js';
import { stdlibWithBytecode } from '../../src/runner/build/stdlib-bytecode.js';

/** Pyodide under Node takes seconds to start, more on a busy machine. */
const SLOW = 180_000;

describe('the standard library repacked with bytecode', () => {
  it(
    'is stored, holds bytecode beside the start-up modules and keeps every source; Python imports from it and its tracebacks show stdlib lines',
    async () => {
      const zip = await stdlibWithBytecode(pyodideFolder());
      const dir = mkdtempSync(path.join(os.tmpdir(), 'pybook-stdlib-'));
      try {
        const file = path.join(dir, 'python_stdlib.zip');
        writeFileSync(file, zip);
        const pyodide = await loadPyodide({ indexURL: `${pyodideFolder()}/`, stdLibURL: file });
        const report = pyodide.runPython(String.raw`
import sys, zipfile, traceback, json
z = zipfile.ZipFile([p for p in sys.path if p.endswith('.zip')][0])
names = set(z.namelist())
lines = [
    str(all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())),
    str({'json/__init__.pyc', 'json/__init__.py', 'os.pyc', 'os.py', 'xml/dom/minidom.py'} <= names),
    str('xml/dom/minidom.pyc' in names),
]
try:
    json.loads('{')
except ValueError:
    lines.append(traceback.format_exc())
'\n'.join(lines)
`) as string;
        const [stored, both, rarelyUsed, ...trace] = report.split('\n');
        expect([stored, both, rarelyUsed]).toEqual(['True', 'True', 'False']);
        expect(trace.join('\n')).toContain('json/decoder.py", line');
        expect(trace.join('\n')).toContain('obj, end = self.scan_once(s, idx)');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});
