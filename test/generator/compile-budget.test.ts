/**
 * Pathological chapters (issue #23): a chapter that makes the parser crawl or overflow its stack
 * fails with its file and the line that causes it, instead of hanging the build or failing with
 * "Maximum call stack size exceeded" and no file.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  baseBudgetMs,
  BUDGET_ENV,
  chapterBudgetMs,
  DEFAULT_BUDGET_MS,
} from '../../src/generator/compile-budget/budget.js';
import { locateCulprit, type Probe } from '../../src/generator/compile-budget/locate-culprit.js';
import { SUSPICIOUS_LINE_CHARS, suspicionOf } from '../../src/generator/compile-budget/suspicious.js';
import { Builder } from '../../src/generator/build.js';
import type { CompileJob } from '../../src/generator/compile-jobs.js';
import { compileChapters } from '../../src/generator/compile-pool.js';
import { BookError, formatError } from '../../src/core/errors.js';
import { createTinyBook, type TinyBook } from '../watch/tiny-book.js';

describe('the compile budget', () => {
  it('defaults, comes from the environment or the option, and grows with the chapter', () => {
    expect(baseBudgetMs(undefined, {})).toBe(DEFAULT_BUDGET_MS);
    expect(baseBudgetMs(undefined, { [BUDGET_ENV]: '250' })).toBe(250);
    expect(baseBudgetMs(undefined, { [BUDGET_ENV]: 'soon' })).toBe(DEFAULT_BUDGET_MS);
    expect(baseBudgetMs(900, { [BUDGET_ENV]: '250' })).toBe(900);
    expect(chapterBudgetMs(1000, 0)).toBe(1000);
    expect(chapterBudgetMs(1000, 36_000)).toBe(4600);
  });
});

describe('the pre-check that sends a chapter of `pybook build` to a budgeted worker', () => {
  it('passes ordinary text and flags long lines and deep nesting', () => {
    expect(
      suspicionOf('---\ntitle: T\n---\n\n> a quote\n> > nested\n\n<Answer>\n\nText\n\n</Answer>\n'),
    ).toBeUndefined();
    expect(suspicionOf(`a\n${'x'.repeat(SUSPICIOUS_LINE_CHARS + 1)}\n`)).toBe(
      `a line of ${SUSPICIOUS_LINE_CHARS + 1} characters`,
    );
    expect(suspicionOf('> '.repeat(100))).toBe('100 nested quotes');
    expect(suspicionOf('<Answer>\n'.repeat(2000))).toBe('components nested 65 deep');
    expect(suspicionOf('<Answer>x</Answer>\n'.repeat(2000))).toBeUndefined();
  });
});

describe('locating the line that makes a chapter fail', () => {
  /** A probe that answers at once. */
  const probeOf =
    (fails: (source: string) => Awaited<ReturnType<Probe>>): Probe =>
    (source) =>
      Promise.resolve(fails(source));
  const lines = ['---', 'title: T', '---', '', 'Intro.', 'SLOW', 'After.', '', 'More.'];
  it('names the longest line when the chapter without it passes', async () => {
    const probed: string[] = [];
    const culprit = await locateCulprit(
      lines.join('\n'),
      probeOf((source) => {
        probed.push(source);
        return source.includes('SLOW') ? 'timeout' : undefined;
      }),
    );
    // "title: T" is the longest line here: without it the chapter still fails, so prefixes are bisected.
    expect(culprit).toEqual({ line: 6, found: 'first-failing-prefix' });
    expect(probed.length).toBeLessThanOrEqual(1 + Math.ceil(Math.log2(lines.length)));
  });

  it('says "without it" when blanking the longest line makes the chapter pass', async () => {
    const source = [...lines.slice(0, 5), '*_'.repeat(50), ...lines.slice(6)].join('\n');
    expect(
      await locateCulprit(
        source,
        probeOf((text) => (text.includes('*_*_') ? 'timeout' : undefined)),
      ),
    ).toEqual({
      line: 6,
      found: 'without-it',
    });
  });

  it('finds where nesting that builds up over many lines starts to fail', async () => {
    const nested = ['---', 'title: T', '---', '', ...Array.from({ length: 100 }, () => '<Answer>')];
    const culprit = await locateCulprit(
      nested.join('\n'),
      probeOf((text) => ((text.match(/<Answer>/g)?.length ?? 0) >= 70 ? 'overflow' : undefined)),
    );
    expect(culprit).toEqual({ line: 4 + 70, found: 'first-failing-prefix' });
  });
});

describe('a pathological chapter in `pybook build`', () => {
  let book: TinyBook | undefined;
  afterEach(() => {
    if (book) rmSync(book.dir, { recursive: true, force: true });
    book = undefined;
  });

  it('50,000 "[" then 50,000 "]" on one line fails within its budget, naming the file and the line', async () => {
    book = createTinyBook();
    const good = readFileSync(book.file('en', 'gamma'), 'utf8');
    const line = good.split('\n').length + 1;
    writeFileSync(book.file('en', 'gamma'), `${good}\n${'['.repeat(50_000)}${']'.repeat(50_000)}\n`);
    // The ordinary chapters compile on the main thread without a budget; only gamma is budgeted.
    const builder = new Builder({ configPath: book.configPath, compileBudgetMs: 300 });
    const error = await builder.build().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BookError);
    const text = formatError(error);
    expect(text).toMatch(
      new RegExp(
        `en/gamma\\.mdx:${line}:1: compiling this chapter took longer than its budget of \\d+\\.\\d s and was stopped: line ${line} is the cause \\(100,000 characters; without it the chapter compiles in time\\)`,
      ),
    );
    expect(text).toContain(`${line} | ${'['.repeat(100)}…`);
  });

  it('a 20 KB line of ">" fails with the file and line, not a bare "Maximum call stack size exceeded"', async () => {
    book = createTinyBook();
    const good = readFileSync(book.file('zh-cn', 'alpha'), 'utf8');
    const line = good.split('\n').length + 2;
    writeFileSync(book.file('zh-cn', 'alpha'), `${good}\n\n${'>'.repeat(20_000)}\n`);
    // A budget that the blanked chapter (80 paragraphs, compiled by a fresh worker after the
    // timeout) meets on a busy machine. Which limit the line reaches first depends on the machine:
    // micromark took 35 s on it before it overflowed on one, and overflowed within the budget on a
    // faster one. Either way the error names the file, the line and why.
    const error = await new Builder({ configPath: book.configPath, compileBudgetMs: 1000 }).build().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BookError);
    const position = (error as BookError).position;
    expect(position).toMatchObject({ line, column: 1 });
    expect(position?.file).toMatch(/zh-cn[/\\]alpha\.mdx$/);
    // Or, where the parser gets through it, the nesting limit stops the chapter before React's render would overflow.
    expect((error as BookError).message, formatError(error)).toMatch(
      /^((compiling this chapter took longer than its budget .*|this chapter nests too deeply for the parser \(Maximum call stack size exceeded\)): line \d+ is the cause \(20,000 characters;|this chapter nests too deeply: elements are nested more than 64 levels deep from column 65 )/,
    );
  });
});

describe('a stack overflow on the main thread', () => {
  it('becomes an error naming the file and the line, found by compiling variants in a budgeted worker', async () => {
    const source = `---\ntitle: Deep\n---\n\nIntro.\n\n${'>'.repeat(3000)} x\n\nAfter.\n`;
    const job: CompileJob = {
      key: 'deep',
      source,
      file: 'book/en/deep.mdx',
      slug: 'deep',
      basePath: '/b/',
      localePaths: [],
      locale: {
        code: 'en',
        path: 'en',
        isDefault: true,
        label: 'English',
        htmlLang: 'en',
        direction: 'ltr',
        calendar: 'gregory',
        urlPrefix: '',
      },
    };
    const [outcome] = await compileChapters([job], { threads: 1, budgetOf: () => 60_000, budgeted: () => false });
    // Or, where the parser gets through it, the nesting limit names the same line before React's render would overflow.
    expect('error' in outcome && formatError(outcome.error)).toMatch(
      /^book\/en\/deep\.mdx:7:1: this chapter nests too deeply( for the parser \(Maximum call stack size exceeded\): line 7 is the cause \(3,002 characters; without it the chapter compiles in time\)|: elements are nested more than 64 levels deep from column 65 )/,
    );
  });
});
