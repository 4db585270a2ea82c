/**
 * `pybook build`'s cheap pre-check: which chapters compile in a budgeted worker. Compiling every
 * chapter in a worker cost `build` about a tenth more on the real book (paired runs on a busy
 * two-core machine, 9 interleaved runs of `build --no-cache` each way: medians 58.9 s in a worker against 53.2 s on the main thread, a ratio of 1.11), so `build` keeps compiling on its
 * own thread and sends only chapters that look like the known pathological input to a worker
 * with a budget: a very long line (the real book's longest is 826 characters; the slow cases
 * are runs of punctuation thousands long) or deep nesting of components or quotes.
 */
/** Longer lines than this go to a budgeted worker. */
export const SUSPICIOUS_LINE_CHARS = 2_000;
/** Deeper nesting than this (open components, or `>` quote markers on one line) too. */
export const SUSPICIOUS_DEPTH = 64;

/** The first character of a line that is not white space (`\S` also steps over line ends: callers check the index). */
const NOT_SPACE = /\S/g;

/**
 * Why a chapter should compile with a budget, or undefined for an ordinary chapter. Every line is
 * looked at, so a line is only cut out (and matched) when it starts with `>` or `<`: on the real
 * book that is one line in twenty, and the check costs a fortieth of what slicing every line did.
 */
export function suspicionOf(source: string): string | undefined {
  let depth = 0;
  let start = 0;
  while (start <= source.length) {
    let end = source.indexOf('\n', start);
    if (end < 0) end = source.length;
    if (end - start > SUSPICIOUS_LINE_CHARS) return `a line of ${end - start} characters`;
    NOT_SPACE.lastIndex = start;
    const first = NOT_SPACE.exec(source)?.index ?? end;
    const marker = first < end ? source[first] : '';
    if (marker === '>' || marker === '<') {
      const line = source.slice(first, end);
      const quotes = /^(?:>\s*)*/.exec(line)![0].replace(/\s/g, '').length;
      if (quotes > SUSPICIOUS_DEPTH) return `${quotes} nested quotes`;
      if (/^<[A-Za-z]/.test(line) && !/\/>\s*$/.test(line) && !/<\/[A-Za-z][^>]*>\s*$/.test(line)) depth++;
      else if (/^<\/[A-Za-z]/.test(line)) depth = Math.max(0, depth - 1);
      if (depth > SUSPICIOUS_DEPTH) return `components nested ${depth} deep`;
    }
    start = end + 1;
  }
  return undefined;
}
