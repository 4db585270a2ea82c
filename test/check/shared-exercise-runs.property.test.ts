/**
 * Identical exercise programs share one run (`pybook check`, src/check/check-book.ts): the two
 * editions' exercises are the same code, and a program (a candidate answer with the tests) prints
 * the same wherever it appears. Generated books give each chapter of both languages an exercise
 * whose answer and starter come from small pools, with repeats; every chapter must still get its
 * exercise's verdict, with its failures at its own lines, exactly as if it had run alone, and only
 * identical programs may share a run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkBook } from '../../src/check/check-book.js';
import { loadConfig } from '../../src/config/load-config.js';
import { compileChapter } from '../../src/markdown/compile.js';
import { chapter, createFixtureBook } from '../fixtures/fixture-book.js';

const TESTS =
  'def test_keeps_first_seen_order():\n    assert dedupe([3, 1, 3, 2]) == [3, 1, 2]\n\n\ndef test_empty():\n    assert dedupe([]) == []\n';

/** Answers: right, or wrong on order (fails the order test). */
const ANSWERS = [
  { code: 'def dedupe(xs):\n    return list(dict.fromkeys(xs))', right: true },
  { code: 'def dedupe(xs):\n    return sorted(set(xs))', right: false },
];
/** Starters: one fails both tests; one passes test_empty, which then no wrong answer catches. */
const STARTERS = [
  { code: 'def dedupe(xs):\n    return None', catchesEveryTest: true },
  { code: 'def dedupe(xs):\n    return []', catchesEveryTest: false },
];

const exerciseBody = (answer: number, starter: number) =>
  `## Exercise\n\n\`\`\`python exercise="starter"\n${STARTERS[starter].code}\n\`\`\`\n\n` +
  `\`\`\`python exercise="tests"\n${TESTS}\`\`\`\n\n<Answer>\n\n` +
  `\`\`\`python exercise="answer"\n${ANSWERS[answer].code}\n\`\`\`\n\n</Answer>`;

const SLUGS = ['one', 'two'] as const;
const LOCALES = ['en', 'zh-cn'] as const;

/** The lines pybook reports for the exercise's answer and tests in a chapter's source. */
function linesOf(source: string): { answer: number; tests: number } {
  const compiled = compileChapter(source, 'book/en/x.mdx', {
    slug: 'x',
    basePath: '/',
    localePaths: [],
    routeFor: (slug) => `/${slug}/`,
  });
  return compiled.exercise!.lines;
}

describe('identical exercise programs share a run', () => {
  it('every chapter gets its exercise verdict at its own lines, and only identical programs share', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Per locale and chapter: [answer, starter] indices into the pools.
        fc.array(fc.tuple(fc.nat({ max: ANSWERS.length - 1 }), fc.nat({ max: STARTERS.length - 1 })), {
          minLength: 4,
          maxLength: 4,
        }),
        async (placement) => {
          const at = (l: number, s: number) => placement[l * SLUGS.length + s];
          const sources = LOCALES.map((_, l) => SLUGS.map((slug, s) => chapter(slug, exerciseBody(...at(l, s)))));
          const chapters = Object.fromEntries(
            LOCALES.map((locale, l) => [locale, Object.fromEntries(SLUGS.map((slug, s) => [slug, sources[l][s]]))]),
          );
          const book = await createFixtureBook({ chapters });
          try {
            const reports = await checkBook(loadConfig(book.configPath), { jobs: 2, browser: false });
            // Each chapter runs its answer and its starter with the tests (no traps), and its answer
            // alone as an example (as the page shows it): programs alike, and examples alike, share a run.
            const candidates = placement.flatMap(([a, s]) => [ANSWERS[a].code, STARTERS[s].code]);
            const answers = placement.map(([a]) => ANSWERS[a].code);
            const shared = candidates.length - new Set(candidates).size + (answers.length - new Set(answers).size);
            expect(reports.reduce((n, r) => n + r.shared, 0)).toBe(shared);
            for (const [l, locale] of LOCALES.entries())
              for (const [s, slug] of SLUGS.entries()) {
                const report = reports.find((r) => r.locale === locale && r.slug === slug)!;
                const [answer, starter] = at(l, s);
                const lines = linesOf(sources[l][s]);
                const expected = [
                  ...(ANSWERS[answer].right ? [] : [{ line: lines.answer, message: /answer fails its tests/ }]),
                  ...(STARTERS[starter].catchesEveryTest
                    ? []
                    : [{ line: lines.tests, message: /^test_empty fails for no wrong answer/ }]),
                ];
                const failures = [...report.failures].sort((a, b) => a.line - b.line);
                expected.sort((a, b) => a.line - b.line);
                expect(failures.map((f) => f.line)).toEqual(expected.map((e) => e.line));
                for (const [i, failure] of failures.entries()) expect(failure.message).toMatch(expected[i].message);
                expect(report.exercise?.verified).toBe(expected.length === 0);
              }
          } finally {
            await book.remove();
          }
        },
      ),
      { numRuns: 5 },
    );
  });

  it("in the reader's Python too: the two editions' exercise runs once in Pyodide, and both chapters are verified there", async () => {
    const body = exerciseBody(0, 0);
    const book = await createFixtureBook({
      chapters: { en: { one: chapter('one', body) }, 'zh-cn': { one: chapter('one', body) } },
    });
    try {
      const reports = await checkBook(loadConfig(book.configPath), { jobs: 2, keepRecord: true });
      // Answer and starter with the tests, natively and in Pyodide, and the answer as an example in
      // both: whichever edition runs second takes all six runs from the first.
      expect(reports.reduce((n, r) => n + r.shared, 0)).toBe(6);
      expect(reports.map((r) => [r.locale, r.failures, r.exercise])).toEqual([
        ['en', [], { verified: true, runtimes: ['python3', 'pyodide'] }],
        ['zh-cn', [], { verified: true, runtimes: ['python3', 'pyodide'] }],
      ]);
      // Each edition's record: its answer as an example, and its exercise (Check offered).
      expect(reports.map((r) => r.passedInBrowser.length)).toEqual([2, 2]);
    } finally {
      await book.remove();
    }
  });
});
