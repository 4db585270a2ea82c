/**
 * Errors that point at something an author or maintainer can fix: a file position
 * (chapter, line, column) or a config field. The CLI formats them once (see formatError).
 */
export interface SourcePosition {
  file: string;
  line?: number;
  column?: number;
}

export class BookError extends Error {
  readonly position?: SourcePosition;
  /** The offending source line, shown under the message when known. */
  readonly sourceLine?: string;

  constructor(message: string, position?: SourcePosition, sourceLine?: string) {
    super(message);
    this.name = 'BookError';
    this.position = position;
    this.sourceLine = sourceLine;
  }
}

/** Several located errors found in one pass (e.g. every broken link of the book). */
export class BookErrors extends Error {
  readonly errors: BookError[];

  constructor(errors: BookError[]) {
    super(errors.map(formatError).join('\n'));
    this.name = 'BookErrors';
    this.errors = errors;
  }
}

export function formatPosition(position: SourcePosition): string {
  let text = position.file;
  if (position.line !== undefined) text += `:${position.line}`;
  if (position.line !== undefined && position.column !== undefined) text += `:${position.column}`;
  return text;
}

/** A build warning as every verb prints it: `warning: file:line:column: message`. */
export function formatWarning(warning: { message: string } & SourcePosition): string {
  return `warning: ${formatPosition(warning)}: ${warning.message}`;
}

export function formatError(error: unknown): string {
  if (error instanceof BookErrors) return error.errors.map(formatError).join('\n');
  if (error instanceof BookError) {
    const where = error.position ? `${formatPosition(error.position)}: ` : '';
    let text = `${where}${error.message}`;
    if (error.sourceLine !== undefined && error.position?.column !== undefined) {
      const gutter = `${error.position.line ?? ''} | `;
      text += `\n  ${gutter}${error.sourceLine}\n  ${' '.repeat(gutter.length + error.position.column - 1)}^`;
    }
    return text;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Line `line` (1-based) of `text`, for error excerpts. */
export function lineOf(text: string, line: number): string | undefined {
  return text.split(/\r?\n/)[line - 1];
}
