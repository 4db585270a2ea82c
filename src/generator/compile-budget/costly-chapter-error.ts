/** The error of a chapter that exceeded its compile budget or the stack, with the line found for it. */
import { BookError } from '../../core/errors.js';
import type { CompileFailure } from '../compile-thread.js';
import type { Culprit } from './locate-culprit.js';

/** Lines this long are cut in the excerpt under the message. */
const EXCERPT_CHARS = 100;

/** A budget as the message shows it: "7.6 s", "11 s". */
export const budgetInSeconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

export function costlyChapterError(
  file: string,
  source: string,
  failure: CompileFailure,
  budgetMs: number,
  culprit: Culprit | undefined,
): BookError {
  const what =
    failure === 'timeout'
      ? `compiling this chapter took longer than its budget of ${budgetInSeconds(budgetMs)} and was stopped`
      : 'this chapter nests too deeply for the parser (Maximum call stack size exceeded)';
  const cause =
    'long runs of markdown punctuation on one line ("*_*_…", "[[[…", ">>>…") or thousands of nested blocks make the parser slow or deep; split the line, or put it in a code block';
  if (!culprit) return new BookError(`${what}; no single line could be named as the cause: ${cause}`, { file });
  const line = source.split('\n')[culprit.line - 1] ?? '';
  const how =
    culprit.found === 'without-it'
      ? `line ${culprit.line} is the cause (${line.length.toLocaleString('en')} characters; without it the chapter compiles in time)`
      : `line ${culprit.line} is where it starts (the lines before it compile in time, up to it they do not)`;
  const excerpt = line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS)}…` : line;
  return new BookError(
    `${what}: ${how}; ${cause}`,
    { file, line: culprit.line, column: 1 },
    excerpt.replace(/\r$/, ''),
  );
}
