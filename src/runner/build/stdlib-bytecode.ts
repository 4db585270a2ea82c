/**
 * Pyodide's standard library, repacked for the page at install (tools/compress-pyodide.mjs).
 *
 * The npm package's python_stdlib.zip holds source files only, deflated. Every interpreter the
 * page starts (one per run) then compiles the ~200 modules Python's start-up and the harness
 * import from source: most of a sandbox's start (measured under Node: 4.5 s to start Pyodide
 * with it, 1.8 s with those modules compiled). Here, with the same Pyodide under Node (so the
 * same Python and bytecode version), the zip is written again:
 * - stored, not deflated: brotli then compresses across files, 1.8 MB instead of 2.5 MB, and
 *   importing skips inflating;
 * - with a `.pyc` beside each module imported at start-up, by the harness or by the modules the
 *   book's examples use most (hash-based and unchecked, so zipimport takes it without comparing
 *   times). The sources stay, so tracebacks still show stdlib lines as CPython's do.
 * What Python runs is unchanged: the same modules, compiled by the same compiler. One thing a
 * program can see differs: a module loaded from bytecode has `__file__` ending in `.pyc`; so
 * `pybook check`'s Pyodide imports from this zip too (node/runtime-host.ts).
 */
import type { PyDict } from 'pyodide/ffi';
import { PythonSession } from '../shared/python-session.js';

/** Modules the book's examples import most; their dependencies come with them. */
const COMMON_MODULES = [
  'json', 're', 'datetime', 'collections', 'random', 'typing', 'dataclasses', 'pathlib', 'csv', 'string', 'textwrap',
  'decimal', 'fractions', 'statistics', 'enum', 'copy', 'pprint', 'heapq', 'bisect', 'shutil', 'tempfile', 'glob',
  'calendar', 'uuid', 'hashlib', 'base64', 'sqlite3', 'urllib.parse', 'logging', 'contextlib', 'operator', 'functools',
  'itertools', 'asyncio', 'abc', 'argparse', 'unittest',
];

const REPACK = String.raw`
import importlib, importlib.util, io, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

for name in COMMON_MODULES:
    try:
        importlib.import_module(name)
    except ImportError:
        pass
zip_path = next(p for p in sys.path if p.endswith('.zip'))
prefix = zip_path + '/'
compiled = {f[len(prefix):] for m in list(sys.modules.values()) if (f := getattr(m, '__file__', None) or '').startswith(prefix)}
out = io.BytesIO()
with zipfile.ZipFile(zip_path) as source, zipfile.ZipFile(out, 'w', zipfile.ZIP_STORED) as repacked:
    for info in source.infolist():
        data = source.read(info.filename)
        info.compress_type = zipfile.ZIP_STORED
        repacked.writestr(info, data)
        if info.filename in compiled:
            code = compile(data, prefix + info.filename, 'exec', dont_inherit=True)
            pyc = zipfile.ZipInfo(info.filename + 'c', info.date_time)
            repacked.writestr(pyc, bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), False)))
out.getvalue()
`;

/** The repacked zip's bytes, made by starting Pyodide from `pyodideFolder` (some seconds of CPU). */
export async function stdlibWithBytecode(pyodideFolder: string, common = COMMON_MODULES): Promise<Uint8Array> {
  const { loadPyodide } = await import('pyodide');
  const pyodide = await loadPyodide({ indexURL: `${pyodideFolder}/` });
  // What a page's run imports: Pyodide's start-up, the harness, and running a program.
  const session = new PythonSession(pyodide, []);
  await session.run('print(1)', 'example.py', { stdout() {}, stderr() {} });
  (pyodide.globals as PyDict).set('COMMON_MODULES', pyodide.toPy(common));
  const bytes = pyodide.runPython(REPACK) as { toJs(): Uint8Array; destroy(): void };
  const copy = new Uint8Array(bytes.toJs());
  bytes.destroy();
  return copy;
}
