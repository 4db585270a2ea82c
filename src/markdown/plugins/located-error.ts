import type { Node } from 'unist';
import type { VFile } from 'vfile';
import { BookError, lineOf } from '../../core/errors.js';

/** A BookError at a node's start, with the offending source line for the excerpt. */
export function errorAt(file: VFile, node: Node | undefined, message: string): BookError {
  const start = node?.position?.start;
  const sourceLine = start ? lineOf(String(file.value), start.line) : undefined;
  return new BookError(message, { file: file.path, line: start?.line, column: start?.column }, sourceLine);
}

export function warn(file: VFile, node: Node | undefined, message: string): void {
  const start = node?.position?.start;
  (file.data.warnings ??= []).push({ file: file.path, line: start?.line, column: start?.column, message });
}
