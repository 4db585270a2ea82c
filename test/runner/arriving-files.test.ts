import { describe, expect, it } from 'vitest';
import { ArrivingFiles } from '../../src/runner/client/arriving-files.js';

describe('ArrivingFiles: the worker starts on the files it has and waits for the others', () => {
  it('gives a file once it has arrived, to those who asked before and after', async () => {
    const files = new ArrivingFiles(['pyodide.asm.wasm', 'python_stdlib.zip']);
    const early = files.get('python_stdlib.zip')!;
    let settled = false;
    void early.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    const zip = new Blob(['zip']);
    files.arrived('python_stdlib.zip', zip);
    expect(await early).toBe(zip);
    expect(await files.get('python_stdlib.zip')).toBe(zip);
  });

  it('knows at once that a name not announced is not coming, and ignores its arrival', () => {
    const files = new ArrivingFiles(['pyodide.mjs']);
    expect(files.get('pyodide-lock.json')).toBeUndefined();
    files.arrived('pyodide-lock.json', new Blob(['{}']));
    expect(files.get('pyodide-lock.json')).toBeUndefined();
  });

  it('keeps the first of a name: a second arrival changes nothing', async () => {
    const files = new ArrivingFiles(['pyodide.mjs']);
    const first = new Blob(['first']);
    files.arrived('pyodide.mjs', first);
    files.arrived('pyodide.mjs', new Blob(['second']));
    expect(await files.get('pyodide.mjs')).toBe(first);
  });
});
