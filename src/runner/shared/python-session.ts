import type { PyodideAPI } from 'pyodide';
import type { PyDict } from 'pyodide/ffi';
import { FIXTURES_FOLDER, PYTHON_HARNESS } from './python-harness.js';

/** Where a run's printed text goes, as it is printed. */
export interface RunOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface Fixture {
  name: string;
  bytes: Uint8Array;
}

const ignore: RunOutput = { stdout() {}, stderr() {} };

/**
 * The part of Emscripten's file system used here: pyodide's types name it (`typeof FS`) from
 * @types/emscripten's globals, which the shared code does not load.
 */
interface EmscriptenFS {
  mkdirTree(path: string): void;
  writeFile(path: string, data: Uint8Array): void;
}

type RunExample = ((source: string, filename: string) => number) & {
  callPromising(...args: unknown[]): Promise<number>;
  destroy(): void;
};

/**
 * One Pyodide interpreter that runs examples one after another (see python-harness.ts for what
 * each run starts from). Used by the page's Python worker and by `pybook check`'s Pyodide host.
 */
export class PythonSession {
  private output: RunOutput = ignore;
  private stdin: string | undefined;
  private readonly runExample: RunExample;
  private readonly mustRetire: () => boolean;

  constructor(
    private readonly pyodide: PyodideAPI,
    fixtures: Fixture[],
  ) {
    const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
    const writer = (stream: 'stdout' | 'stderr') => ({
      write: (bytes: Uint8Array) => {
        this.output[stream](decoders[stream].decode(bytes, { stream: true }));
        return bytes.length;
      },
    });
    pyodide.setStdout(writer('stdout'));
    pyodide.setStderr(writer('stderr'));
    // Without text for it, input() meets the end of the input, as under `python3 < /dev/null`.
    pyodide.setStdin({ stdin: () => this.takeStdin() });
    const fs = pyodide.FS as EmscriptenFS;
    fs.mkdirTree(FIXTURES_FOLDER);
    for (const fixture of fixtures) fs.writeFile(`${FIXTURES_FOLDER}/${fixture.name}`, fixture.bytes);
    pyodide.runPython(PYTHON_HARNESS);
    // The globals are __main__'s dict.
    const globals = pyodide.globals as PyDict;
    this.runExample = globals.get('run_example') as RunExample;
    this.mustRetire = globals.get('must_retire') as () => boolean;
  }

  /** The interpreter's Python version, e.g. "3.14.2". */
  get pythonVersion(): string {
    return String(this.pyodide.runPython('import sys; sys.version.split()[0]'));
  }

  /**
   * Runs one program as `python3 <filename>` would; resolves with its exit status. With stack
   * switching (JSPI) the program may block on asyncio.run() or time.sleep(). `stdin` is what
   * input() and sys.stdin read, as from `python3 example.py < file`.
   */
  async run(source: string, filename: string, output: RunOutput, stdin = ''): Promise<number> {
    this.output = output;
    this.stdin = stdin || undefined;
    try {
      return canStackSwitch()
        ? await this.runExample.callPromising(source, filename)
        : this.runExample(source, filename);
    } finally {
      this.output = ignore;
      this.stdin = undefined;
    }
  }

  /**
   * Whether this interpreter may run another program: not after one that reached JavaScript or
   * changed files outside its folder (python-harness.ts), which the reset cannot undo.
   */
  get reusable(): boolean {
    return !this.mustRetire();
  }

  /** The run's standard input, handed over once; then the end of the input. */
  private takeStdin(): string | null {
    const text = this.stdin ?? null;
    this.stdin = undefined;
    return text;
  }
}

/** Whether this JavaScript engine can suspend WebAssembly (JSPI), which blocking Python calls need. */
export function canStackSwitch(): boolean {
  const wasm = (globalThis as unknown as { WebAssembly: Record<string, unknown> }).WebAssembly;
  return typeof wasm.Suspending === 'function' || typeof wasm.Suspender === 'function';
}
