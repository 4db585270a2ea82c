import { describe, expect, it } from 'vitest';
import { heapGrowingPercentFor, LARGE_BOOK_CHAPTER_FILES } from '../../src/generator/heap-growth.js';

describe('heap growth of a one-off build', () => {
  it("keeps V8's own growth for books up to 999 chapter files (the real book has 90)", () => {
    expect(heapGrowingPercentFor(90)).toBeUndefined();
    expect(heapGrowingPercentFor(LARGE_BOOK_CHAPTER_FILES - 1)).toBeUndefined();
  });

  it('holds a large book to 1.5 times what survived the last major collection', () => {
    expect(heapGrowingPercentFor(LARGE_BOOK_CHAPTER_FILES)).toBe(50);
    expect(heapGrowingPercentFor(2000)).toBe(50);
  });
});
