/**
 * An exercise as the chapter writes it: three fenced Python blocks marked `exercise="starter"`,
 * `exercise="tests"` and `exercise="answer"` (the answer inside <Answer>). One exercise per chapter.
 */
export type ExercisePart = 'starter' | 'tests' | 'answer';
export const EXERCISE_PARTS: readonly ExercisePart[] = ['starter', 'tests', 'answer'];

export interface Exercise {
  /** The line of the starter block. */
  line: number;
  starter: string;
  tests: string;
  answer: string;
  /** The line of each part, for located messages. */
  lines: Record<ExercisePart, number>;
}

export interface MarkedBlock { part: ExercisePart; code: string; line: number }

/** Thrown with the line it is about; the code-blocks plugin turns it into a located error. */
export class ExerciseFormatError extends Error {
  constructor(message: string, readonly line: number) { super(message); }
}

/** The chapter's exercise from its marked blocks (none when no block is marked). */
export function collectExercise(blocks: MarkedBlock[]): Exercise | undefined {
  if (blocks.length === 0) return undefined;
  const found: Partial<Record<ExercisePart, MarkedBlock>> = {};
  for (const block of blocks) {
    const earlier = found[block.part];
    if (earlier) throw new ExerciseFormatError(`a second exercise="${block.part}" block: a chapter has one exercise (the first is on line ${earlier.line})`, block.line);
    found[block.part] = block;
  }
  const missing = EXERCISE_PARTS.filter((part) => !found[part]);
  if (missing.length) {
    throw new ExerciseFormatError(`the exercise has no ${missing.map((p) => `exercise="${p}"`).join(' or ')} block: an exercise needs starter code, tests and the answer`, blocks[0].line);
  }
  if (!/^def test_\w*\s*\(/m.test(found.tests!.code)) {
    throw new ExerciseFormatError('the exercise="tests" block defines no test function: write `def test_something():` with plain asserts', found.tests!.line);
  }
  return {
    line: found.starter!.line, starter: found.starter!.code, tests: found.tests!.code, answer: found.answer!.code,
    lines: { starter: found.starter!.line, tests: found.tests!.line, answer: found.answer!.line },
  };
}
