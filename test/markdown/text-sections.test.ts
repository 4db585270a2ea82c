import { describe, expect, it } from 'vitest';
import { countWords } from '../../src/markdown/plugins/text-sections.js';

describe('countWords (reading time)', () => {
  it('counts Latin words, keeping apostrophes, hyphens and underscores inside a word', () => {
    expect(countWords("it's a co-op’s snake_case value, 42 times")).toBe(7);
    expect(countWords('  ')).toBe(0);
  });

  it('counts CJK characters as two thirds of a word each, and they end Latin words', () => {
    expect(countWords('中文很好读')).toBe(3); // 5 / 1.5 = 3.33
    expect(countWords('用Python写代码')).toBe(1 + Math.round(5 / 1.5));
  });

  it('counts other letters (é, —) as breaks, as the reading-time estimate always has', () => {
    expect(countWords('café—bar')).toBe(2);
  });
});
