import { formatError, formatWarning } from '../core/errors.js';
import type { Warning } from '../shared/model/chapter.js';

/** Progress on a terminal (one updating line), plain lines elsewhere (CI logs). */
export function progressReporter(stream: NodeJS.WriteStream = process.stderr): (step: string) => void {
  if (!stream.isTTY) return (step) => stream.write(`pybook: ${step}\n`);
  return (step) => stream.write(`\r\x1b[2K${step}…`);
}

export function clearProgress(stream: NodeJS.WriteStream = process.stderr): void {
  if (stream.isTTY) stream.write('\r\x1b[2K');
}

export function printWarnings(warnings: Warning[], stream: NodeJS.WriteStream = process.stderr): void {
  for (const w of warnings) stream.write(`${formatWarning(w)}\n`);
}

/** Prints an error once, in the shape every verb uses, and returns the exit code. */
export function reportFailure(error: unknown, stream: NodeJS.WriteStream = process.stderr): number {
  clearProgress(stream);
  const text = formatError(error);
  stream.write(
    `error: ${text
      .split('\n')
      .join('\nerror: ')
      .replace(/error: {2}/g, '  ')}\n`,
  );
  if (!(error instanceof Error) || !/^Book/.test(error.name)) {
    if (error instanceof Error && error.stack && process.env.PYBOOK_DEBUG) stream.write(`${error.stack}\n`);
  }
  return 1;
}
