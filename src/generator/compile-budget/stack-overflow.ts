/** V8's "Maximum call stack size exceeded": the parser recursed too deep (a 20 KB line of `>`, say). */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
