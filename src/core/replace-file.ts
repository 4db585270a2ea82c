import { closeSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';

/**
 * Writes `file` by writing a new temporary file beside it (O_EXCL: never an existing file, never
 * through a link) and renaming it over `file`: a link at `file` is replaced, not written through,
 * and a reader never sees half a file. (npm's write-file-atomic follows a link to its target,
 * which is exactly what this must not do.)
 */
export function replaceFile(file: string, contents: string | Uint8Array): void {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fd = openSync(temporary, 'wx');
  try {
    writeSync(fd, typeof contents === 'string' ? Buffer.from(contents) : contents);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temporary);
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, file);
}
