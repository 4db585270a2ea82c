/**
 * Identical examples share one run (`pybook check`, src/check/check-book.ts): the two editions of
 * the book print much of the same code. Generated books place examples from a small pool, with
 * repeats, across chapters of both languages; every chapter must still get each example's verdict
 * at its own line, exactly as if each had run alone, and only examples alike in everything a
 * verdict depends on may share a run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkBook } from '../../src/check/check-book.js';
import { loadConfig } from '../../src/config/load-config.js';
import { chapter, createFixtureBook } from '../fixtures/fixture-book.js';

interface PoolExample {
  lang: 'python' | 'javascript';
  a: number;
  b: number;
  /** Whether the expected output is the right sum (else it is one more, and the example fails). */
  right: boolean;
}

const block = (e: PoolExample) =>
  e.lang === 'python'
    ? `\`\`\`python\nprint(${e.a} + ${e.b})\n\`\`\`\n\n\`\`\`output\n${e.a + e.b + (e.right ? 0 : 1)}\n\`\`\``
    : `\`\`\`javascript\nconsole.log(${e.a} + ${e.b})\n\`\`\`\n\n\`\`\`output\n${e.a + e.b + (e.right ? 0 : 1)}\n\`\`\``;

/** Front matter takes lines 1-4; each block is 7 lines and a blank one. */
const lineOf = (index: number) => 5 + 8 * index;

const poolExample = fc.record({
  lang: fc.constantFrom('python' as const, 'javascript' as const),
  a: fc.integer({ min: 0, max: 3 }),
  b: fc.integer({ min: 0, max: 3 }),
  right: fc.boolean(),
});

const SLUGS = ['one', 'two'] as const;
const LOCALES = ['en', 'zh-cn'] as const;

describe('identical examples share a run', () => {
  it('every chapter gets each verdict at its own line, and only identical examples share', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(poolExample, { minLength: 2, maxLength: 4 }).chain((pool) =>
          fc.record({
            pool: fc.constant(pool),
            // Per locale and chapter, which pool examples it prints, in order (repeats welcome).
            placement: fc.array(fc.array(fc.nat({ max: pool.length - 1 }), { minLength: 1, maxLength: 4 }), {
              minLength: 4,
              maxLength: 4,
            }),
          }),
        ),
        async ({ pool, placement }) => {
          const at = (locale: number, slug: number) => placement[locale * SLUGS.length + slug];
          const chapters = Object.fromEntries(
            LOCALES.map((locale, l) => [
              locale,
              Object.fromEntries(
                SLUGS.map((slug, s) => [
                  slug,
                  chapter(
                    slug,
                    at(l, s)
                      .map((i) => block(pool[i]))
                      .join('\n\n'),
                  ),
                ]),
              ),
            ]),
          );
          const book = await createFixtureBook({ chapters });
          try {
            const reports = await checkBook(loadConfig(book.configPath), { jobs: 2, browser: false });
            const placed = LOCALES.flatMap((_, l) => SLUGS.flatMap((__, s) => at(l, s)));
            // Examples alike in code and expected output are one run (the pool may hold one example twice).
            const identities = new Set(placed.map((i) => block(pool[i])));
            expect(reports.reduce((n, r) => n + r.shared, 0)).toBe(placed.length - identities.size);
            for (const [l, locale] of LOCALES.entries())
              for (const [s, slug] of SLUGS.entries()) {
                const report = reports.find((r) => r.locale === locale && r.slug === slug)!;
                const indices = at(l, s);
                expect(report.ran).toBe(indices.length);
                const failing = indices.flatMap((i, position) => (pool[i].right ? [] : [lineOf(position)]));
                expect(report.failures.map((f) => f.line)).toEqual(failing);
                for (const failure of report.failures) expect(failure.message).toMatch(/^output differs/);
              }
          } finally {
            await book.remove();
          }
        },
      ),
      { numRuns: 5 },
    );
  });
});
