import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyExercise, type ProgramRun } from '../../src/exercise/node/verify-exercise.js';
import { describeFailures } from '../../src/exercise/shared/describe.js';
import { allPassed, exerciseProgram, parseExerciseReport } from '../../src/exercise/shared/harness.js';
import { compileChapter } from '../../src/markdown/compile.js';
import { BookError } from '../../src/core/errors.js';

const compile = (body: string) =>
  compileChapter(`---\ntitle: T\n---\n\n${body}`, 'book/en/t.mdx', {
    slug: 't',
    basePath: '/',
    localePaths: [],
    routeFor: (slug) => `/${slug}/`,
  });

/** The harness run by the machine's python3, as the check runs it (without the confinement). */
function python3(program: string): Promise<ProgramRun> {
  const run = spawnSync('python3', ['-c', program], { encoding: 'utf8', timeout: 30_000 });
  return Promise.resolve({ stdout: run.stdout, stderr: run.stderr });
}
async function report(candidate: string, tests: string) {
  const run = await python3(exerciseProgram(candidate, tests));
  if (typeof run === 'string') throw new Error(run);
  return parseExerciseReport(run.stdout)!;
}

const TESTS =
  'def test_keeps_first_seen_order():\n    assert dedupe([3, 1, 3, 2]) == [3, 1, 2]\n\n\ndef test_empty():\n    assert dedupe([]) == []\n';

describe('the exercise harness', () => {
  it('reports each test case, with the input, expected and actual values of a failed ==', async () => {
    const r = await report('def dedupe(xs):\n    print("working")\n    return sorted(set(xs))\n', TESTS);
    expect(r.cases.map((c) => [c.name, c.passed])).toEqual([
      ['test_keeps_first_seen_order', false],
      ['test_empty', true],
    ]);
    expect(r.cases[0]).toMatchObject({
      line: 2,
      input: 'dedupe([3, 1, 3, 2])',
      expected: '[3, 1, 2]',
      actual: '[1, 2, 3]',
    });
    expect(r.output).toContain('working');
    expect(allPassed(r)).toBe(false);
    expect(describeFailures(r)).toContain('expected [3, 1, 2]');
  });

  it('passes a correct candidate, and reports an exception raised in a test or while loading', async () => {
    expect(allPassed(await report('def dedupe(xs):\n    return list(dict.fromkeys(xs))\n', TESTS))).toBe(true);
    const raising = await report('def dedupe(xs):\n    raise NotImplementedError("todo")\n', TESTS);
    expect(raising.cases[0]).toMatchObject({ passed: false, error: 'NotImplementedError: todo' });
    const broken = await report('def dedupe(xs)\n', TESTS);
    expect(broken.error).toMatch(/^exercise\.py: .*SyntaxError/s);
    expect(allPassed(broken)).toBe(false);
  });
});

const EXERCISE = (starter: string, answer: string) =>
  `## Exercise\n\n\`\`\`python exercise="starter"\n${starter}\n\`\`\`\n\n\`\`\`python exercise="tests"\n${TESTS}\`\`\`\n\n<Answer>\n\n\`\`\`python exercise="answer"\n${answer}\n\`\`\`\n\n</Answer>\n`;

function located(body: string) {
  try {
    compile(body);
  } catch (error) {
    if (error instanceof BookError) return { message: error.message, ...error.position };
    throw error;
  }
  throw new Error('compiled without an error');
}

describe('the exercise format', () => {
  it('collects the three parts; starter code and tests are not examples of their own', () => {
    const chapter = compile(
      EXERCISE('def dedupe(xs):\n    return xs', 'def dedupe(xs):\n    return list(dict.fromkeys(xs))'),
    );
    expect(chapter.exercise).toMatchObject({
      starter: 'def dedupe(xs):\n    return xs',
      tests: TESTS.trimEnd(),
      answer: 'def dedupe(xs):\n    return list(dict.fromkeys(xs))',
    });
    expect(chapter.examples.map((e) => e.code)).toEqual(['def dedupe(xs):\n    return list(dict.fromkeys(xs))']);
  });

  it('fails with the line of a missing part, a second part or an unknown part', () => {
    const missing = located('```python exercise="starter"\nx = 1\n```\n');
    expect(missing).toMatchObject({ file: 'book/en/t.mdx', line: 5 });
    expect(missing.message).toContain('no exercise="tests" or exercise="answer"');
    const second = located('```python exercise="starter"\nx = 1\n```\n\n```python exercise="starter"\nx = 2\n```\n');
    expect(second.line).toBe(9);
    expect(second.message).toContain('a second exercise="starter"');
    const unknown = located('```python exercise="hint"\nx = 1\n```\n');
    expect(unknown.line).toBe(5);
    expect(unknown.message).toContain('exercise="hint" is not a part');
  });
});

describe('pybook check on an exercise', () => {
  const exercise = (starter: string, answer: string) => compile(EXERCISE(starter, answer)).exercise!;
  it('accepts an answer that passes and a starter that fails', async () => {
    expect(
      await verifyExercise(
        exercise('def dedupe(xs):\n    return sorted(set(xs))', 'def dedupe(xs):\n    return list(dict.fromkeys(xs))'),
        python3,
        'with python3',
        { timeoutMs: 10_000 },
      ),
    ).toEqual([]);
  });
  it('refuses a wrong answer and a starter that already passes, naming the failing case', async () => {
    const failures = await verifyExercise(
      exercise('def dedupe(xs):\n    return list(dict.fromkeys(xs))', 'def dedupe(xs):\n    return sorted(set(xs))'),
      python3,
      'with python3',
      { timeoutMs: 10_000 },
    );
    expect(failures.map((f) => f.message)).toEqual([
      expect.stringMatching(
        /answer fails its tests with python3:\n.*test_keeps_first_seen_order.*expected \[3, 1, 2\]/s,
      ),
      expect.stringMatching(/starter code passes every test/),
    ]);
  });
});

describe('traps: plausible wrong answers kept beside the exercise', () => {
  const withTraps = (starter: string, traps: string[]) =>
    compile(
      `${EXERCISE(starter, 'def dedupe(xs):\n    return list(dict.fromkeys(xs))')}\n\n${traps.map((t) => `\`\`\`python exercise="trap"\n${t}\n\`\`\``).join('\n\n')}\n`,
    );
  const check = (chapter: ReturnType<typeof compile>) =>
    verifyExercise(chapter.exercise!, python3, 'with python3', { timeoutMs: 10_000 }, { traps: true });

  it('are collected, with their lines, and never shown in the page', () => {
    const chapter = withTraps('def dedupe(xs):\n    return sorted(set(xs))', [
      'def dedupe(xs):\n    return list(set(xs))',
    ]);
    // Line 31 of the chapter is the trap's opening fence.
    expect(chapter.exercise!.traps).toEqual([{ code: 'def dedupe(xs):\n    return list(set(xs))', line: 31 }]);
    expect(JSON.stringify(chapter.hast)).not.toContain('list(set(xs))');
  });

  it('pass when every trap fails a test and every test fails for the starter or a trap', async () => {
    // The starter (sorted) fails the order test only; a trap that crashes on [] fails the empty test.
    const chapter = withTraps('def dedupe(xs):\n    return sorted(set(xs))', [
      'def dedupe(xs):\n    return [xs[0]] + [x for x in xs[1:] if x != xs[0]]',
    ]);
    expect(await check(chapter)).toEqual([]);
  });

  it('fail on a trap that passes every test, and on a test that no wrong answer fails', async () => {
    const chapter = withTraps('def dedupe(xs):\n    return sorted(set(xs))', [
      'def dedupe(xs):\n    out = []\n    for x in xs:\n        if x not in out:\n            out.append(x)\n    return out',
    ]);
    const failures = (await check(chapter)).map((f) => f.message);
    expect(failures).toEqual([
      expect.stringMatching(
        /this exercise="trap" passes every test with python3: the tests do not catch the mistake it makes/,
      ),
      expect.stringMatching(/^test_empty fails for no wrong answer kept beside the exercise with python3/),
    ]);
  });
});

describe("the book's exercises", () => {
  const book = path.resolve(__dirname, '../../book');
  const chapters = readdirSync(path.join(book, 'en')).filter((f) => f.endsWith('.mdx'));
  it('have the same tests and traps in English and Chinese (only the prose is translated)', () => {
    let compared = 0;
    for (const file of chapters) {
      const read = (locale: string) =>
        compileChapter(readFileSync(path.join(book, locale, file), 'utf8'), `book/${locale}/${file}`, {
          slug: file,
          basePath: '/',
          localePaths: [],
          routeFor: (slug) => `/${slug}/`,
        });
      const en = read('en').exercise;
      const zh = read('zh-cn').exercise;
      expect(zh?.tests, file).toBe(en?.tests);
      expect(
        zh?.traps.map((t) => t.code),
        file,
      ).toEqual(en?.traps.map((t) => t.code));
      if (en) compared++;
    }
    expect(compared).toBeGreaterThan(0);
  });
});
