import { isUtf8 } from 'node:buffer';
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { BookError } from '../core/errors.js';
import { isInsideFolder } from '../core/paths.js';

/** Larger than any chapter should be; a bigger file is almost certainly not a chapter. */
export const MAX_CHAPTER_BYTES = 2 * 1024 * 1024;

const where = (file: string) => path.relative(process.cwd(), file) || file;

/** Line and column (1-based, in characters) of byte `offset` of a UTF-8 buffer. */
function positionOfByte(bytes: Buffer, offset: number): { line: number; column: number } {
  const before = bytes.subarray(0, offset);
  const lastNewline = before.lastIndexOf(0x0a);
  const line = before.reduce((n, b) => n + (b === 0x0a ? 1 : 0), 1);
  const column = new TextDecoder('utf-8').decode(before.subarray(lastNewline + 1)).length + 1;
  return { line, column };
}

/** The first byte offset at which `bytes` is not valid UTF-8, or -1. */
function firstInvalidUtf8(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    for (let k = 1; k < length; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    // Overlong forms, surrogates and code points past U+10FFFF.
    if ((b === 0xe0 && bytes[i + 1] < 0xa0) || (b === 0xed && bytes[i + 1] > 0x9f) || (b === 0xf0 && bytes[i + 1] < 0x90) || (b === 0xf4 && bytes[i + 1] > 0x8f)) return i;
    i += length;
  }
  return -1;
}

/**
 * Reads a chapter file as text, or says exactly why it cannot: not a regular file (a folder, a
 * FIFO that would block the build forever, a link to nothing), a link out of the project, too
 * large, or not UTF-8 (with the line and column of the first bad byte). A UTF-8 BOM is dropped.
 */
export function readChapterFile(file: string, projectRoot: string): string {
  // Where the file really is, whatever links it or its folders are: inside the project, or refused.
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    throw new BookError('this chapter file is a symbolic link to nothing (dangling link)', { file: where(file) });
  }
  if (!isInsideFolder(real, realpathSync(projectRoot))) {
    throw new BookError(`this chapter file ${lstatSync(file).isSymbolicLink() ? 'is a link to' : 'is, through a linked folder,'} ${real}, outside the project`, { file: where(file) });
  }
  const stats = statSync(file);
  if (stats.isDirectory()) throw new BookError('this is a folder, not a chapter file: a chapter is one .mdx file', { file: where(file) });
  if (!stats.isFile()) throw new BookError('this is not a regular file (a FIFO, socket or device?): a chapter is one .mdx file', { file: where(file) });
  if (stats.size > MAX_CHAPTER_BYTES) {
    throw new BookError(`this chapter is ${(stats.size / 1024 / 1024).toFixed(1)} MB, more than the ${MAX_CHAPTER_BYTES / 1024 / 1024} MB a chapter may have: split it into several chapters`, { file: where(file) });
  }
  const bytes = readFileSync(file);
  // Node's native check first (watch mode reads every chapter at every save); the byte-by-byte
  // search only runs to find where a file that is not UTF-8 goes wrong.
  const bad = isUtf8(bytes) ? -1 : firstInvalidUtf8(bytes);
  if (bad !== -1) {
    const { line, column } = positionOfByte(bytes, bad);
    throw new BookError(`this file is not valid UTF-8 (byte 0x${bytes[bad].toString(16).padStart(2, '0')} at byte offset ${bad}): save it as UTF-8`, { file: where(file), line, column });
  }
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
