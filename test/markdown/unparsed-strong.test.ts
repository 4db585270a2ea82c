import { describe, expect, it } from 'vitest';
import { chapter } from '../fixtures/fixture-book.js';
import { compileBody, renderBody } from '../fixtures/render.js';

describe('bold markers left as text', () => {
  it('are a warning with the line, when full-width punctuation keeps "**" from closing', () => {
    const body = 'Intro.\n\n使用**区域设置（locale）**的首选编码。';
    const { warnings } = compileBody(body);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toContain('**区域设置（locale）**');
    const line =
      chapter('Test chapter', body)
        .split('\n')
        .findIndex((l) => l.includes('区域设置')) + 1;
    expect(warnings[0].line).toBe(line);
    expect(renderBody(body)).toContain('**区域设置（locale）**');
  });

  it('are not reported for bold that works, or for a lone "**" such as **kwargs', () => {
    for (const body of [
      '使用**区域设置**（locale）的首选编码。',
      '## Variable arguments: *args and **kwargs',
      'Use **bold** and `**not bold**` in code.',
    ]) {
      expect(compileBody(body).warnings, body).toEqual([]);
    }
  });
});
