import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesOf } from '../../src/output/copied-file.js';
import { Builder, type BuildResult } from '../../src/generator/build.js';
import { compileThreads, POOL_MIN_CORES, POOL_MIN_JOBS } from '../../src/generator/compile-pool.js';
import { BookError, BookErrors } from '../../src/core/errors.js';
import { chapter, createFixtureBook, type FixtureBook } from '../fixtures/fixture-book.js';

const digest = (result: BuildResult) =>
  Object.fromEntries(
    [...result.files.entries()].map(([name, contents]) => [
      name,
      createHash('sha256').update(bytesOf(contents)).digest('hex'),
    ]),
  );

describe('how many threads compile chapters', () => {
  it('is one below four cores or for a few chapters, else one per core up to eight', () => {
    expect(compileThreads(500, undefined, 2)).toBe(1);
    expect(compileThreads(500, undefined, POOL_MIN_CORES - 1)).toBe(1);
    expect(compileThreads(POOL_MIN_JOBS - 1, undefined, 16)).toBe(1);
    expect(compileThreads(POOL_MIN_JOBS, undefined, POOL_MIN_CORES)).toBe(POOL_MIN_CORES);
    expect(compileThreads(500, undefined, 6)).toBe(6);
    expect(compileThreads(500, undefined, 32)).toBe(8);
  });

  it('is what the author asked for, but never more threads than chapters', () => {
    expect(compileThreads(500, 3, 2)).toBe(3);
    expect(compileThreads(2, 6, 16)).toBe(2);
    expect(compileThreads(0, 6, 16)).toBe(1);
  });
});

describe('compiling on several threads', () => {
  let fixture: FixtureBook;
  beforeAll(async () => {
    const en: Record<string, string> = {};
    const zh: Record<string, string> = {};
    // Chapters of different lengths, with code, links between them and headings, so that the
    // threads finish in a different order than the chapters were given.
    for (let i = 0; i < 12; i++) {
      const body = [
        `## Part ${i}`,
        'Words '.repeat(40 * ((i % 5) + 1)),
        '```python',
        `print(${i} * 2)`,
        '```',
        '',
        '```output',
        String(i * 2),
        '```',
        '',
        `See [the next one](./c${(i + 1) % 12}.mdx#part-${(i + 1) % 12}).`,
      ].join('\n');
      en[`c${i}`] = chapter(`Chapter ${i}`, body);
      if (i % 3 === 0) zh[`c${i}`] = chapter(`第 ${i} 章`, body.replace('Words', '词语'));
    }
    fixture = await createFixtureBook({ chapters: { en, 'zh-cn': zh } });
  });
  afterAll(() => fixture.remove());

  it('builds byte for byte what one thread builds', async () => {
    const single = await new Builder({ configPath: fixture.configPath, threads: 1 }).build();
    const pooled = await new Builder({ configPath: fixture.configPath, threads: 3 }).build();
    expect(Object.keys(digest(single)).length).toBeGreaterThan(24);
    expect(digest(pooled)).toEqual(digest(single));
    expect(pooled.warnings).toEqual(single.warnings);
  });

  it("reports every chapter's mistake with its file, line and column, as one thread does", async () => {
    await fixture.writeChapter('en', 'c4', chapter('Chapter 4', 'Fine text.\n\nAn expression {oops} here.'));
    await fixture.writeChapter('en', 'c9', chapter('Chapter 9', '```rust\nfn main() {}\n```'));
    try {
      const errorsOf = async (threads: number) => {
        const error = await new Builder({ configPath: fixture.configPath, threads }).build().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(BookErrors);
        return (error as BookErrors).errors;
      };
      const pooled = await errorsOf(3);
      expect(pooled.every((e) => e instanceof BookError)).toBe(true);
      expect(
        pooled.map((e) => [
          e.position?.file?.replace(/\\/g, '/').split('/').slice(-2).join('/'),
          e.position?.line,
          e.message.slice(0, 40),
        ]),
      ).toEqual([
        ['en/c4.mdx', 7, expect.stringMatching(/JavaScript expressions are not allowed/)],
        ['en/c9.mdx', 5, expect.stringMatching(/unsupported code language "rust"/)],
      ]);
      expect(pooled).toEqual(await errorsOf(1));
    } finally {
      await fixture.writeChapter('en', 'c4', chapter('Chapter 4', 'Fine again.'));
      await fixture.writeChapter('en', 'c9', chapter('Chapter 9', 'Fine again.'));
    }
  });
});
