/**
 * Which line of a chapter makes it too slow (or too deep) to compile. Two honest ways to name it,
 * each made by compiling variants of the chapter with the same budget:
 * - the longest line, blanked: if the chapter then compiles in time, that line is the cause (one
 *   probe; a long run of markdown punctuation is the usual culprit);
 * - else bisect prefixes: the first N lines fail and the first N - 1 do not, so line N is where
 *   it starts (nesting that builds up over many lines, say).
 */
import type { CompileFailure } from '../compile-thread.js';

/** Line `line` (1-based) and how it was found. */
export interface Culprit {
  line: number;
  /** `without-it`: the chapter without this line compiles in time; `first-failing-prefix`: see above. */
  found: 'without-it' | 'first-failing-prefix';
}

/** Compiles a variant of the chapter with the chapter's budget: undefined when it finished (well or with a mistake of its own). */
export type Probe = (source: string) => Promise<CompileFailure | undefined>;

/** Bisecting more lines than 2^this would take longer than it helps. */
const MAX_BISECT_STEPS = 16;

export async function locateCulprit(source: string, probe: Probe): Promise<Culprit | undefined> {
  const lines = source.split('\n');
  const longest = lines.reduce((best, line, i) => (line.length > lines[best].length ? i : best), 0);
  const blanked = lines.map((line, i) => (i === longest ? '' : line)).join('\n');
  if ((await probe(blanked)) === undefined) return { line: longest + 1, found: 'without-it' };

  // The first `good` lines finish, the first `bad` lines fail.
  let good = 0;
  let bad = lines.length;
  for (let step = 0; bad - good > 1 && step < MAX_BISECT_STEPS; step++) {
    const middle = Math.floor((good + bad) / 2);
    if ((await probe(lines.slice(0, middle).join('\n'))) === undefined) good = middle;
    else bad = middle;
  }
  return bad - good === 1 ? { line: bad, found: 'first-failing-prefix' } : undefined;
}
