/**
 * An exercise as the chapter writes it: three fenced Python blocks marked `exercise="starter"`,
 * `exercise="tests"` and `exercise="answer"` (the answer inside <Answer>), and any number of
 * `exercise="trap"` blocks: plausible wrong answers, never shown, that `pybook check` runs to
 * prove every test catches one of them. One exercise per chapter.
 */
export type ExercisePart = 'starter' | 'tests' | 'answer' | 'trap';
export const EXERCISE_PARTS: readonly ExercisePart[] = ['starter', 'tests', 'answer', 'trap'];

/** The parts a chapter's exercise has exactly one of. */
type SinglePart = Exclude<ExercisePart, 'trap'>;
const SINGLE_PARTS: readonly SinglePart[] = ['starter', 'tests', 'answer'];

export interface Exercise {
  /** The line of the starter block. */
  line: number;
  starter: string;
  tests: string;
  answer: string;
  /** The plausible wrong answers kept beside the exercise (not shown to readers). */
  traps: Array<{ code: string; line: number }>;
  /** The line of each part, for located messages. */
  lines: Record<SinglePart, number>;
}

export interface MarkedBlock {
  part: ExercisePart;
  code: string;
  line: number;
}

/** Thrown with the line it is about; the code-blocks plugin turns it into a located error. */
export class ExerciseFormatError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** The chapter's exercise from its marked blocks (none when no block is marked). */
export function collectExercise(blocks: MarkedBlock[]): Exercise | undefined {
  if (blocks.length === 0) return undefined;
  const found: Partial<Record<SinglePart, MarkedBlock>> = {};
  const traps: Exercise['traps'] = [];
  for (const block of blocks) {
    if (block.part === 'trap') {
      traps.push({ code: block.code, line: block.line });
      continue;
    }
    const earlier = found[block.part];
    if (earlier)
      throw new ExerciseFormatError(
        `a second exercise="${block.part}" block: a chapter has one exercise (the first is on line ${earlier.line})`,
        block.line,
      );
    found[block.part] = block;
  }
  const missing = SINGLE_PARTS.filter((part) => !found[part]);
  if (missing.length) {
    throw new ExerciseFormatError(
      `the exercise has no ${missing.map((p) => `exercise="${p}"`).join(' or ')} block: an exercise needs starter code, tests and the answer`,
      blocks[0].line,
    );
  }
  if (!/^def test_\w*\s*\(/m.test(found.tests!.code)) {
    throw new ExerciseFormatError(
      'the exercise="tests" block defines no test function: write `def test_something():` with plain asserts',
      found.tests!.line,
    );
  }
  return {
    line: found.starter!.line,
    starter: found.starter!.code,
    tests: found.tests!.code,
    answer: found.answer!.code,
    traps,
    lines: { starter: found.starter!.line, tests: found.tests!.line, answer: found.answer!.line },
  };
}
