import { describe, expect, it } from 'vitest';
import { BookError } from '../../src/core/errors.js';
import { compileBody, renderBody, thrown } from '../fixtures/render.js';

const sections = (body: string) => compileBody(body).sections.filter((s) => s.headingId);

describe("::keywords (a section's words for search)", () => {
  it('gives the section it stands in its keywords: inline code as written, other text split at commas', () => {
    const body = [
      '## Identity versus equality',
      '',
      '::keywords[`===`, `!==`, strict equality, `{...a, ...b}`]',
      '',
      'Python has two comparisons.',
      '',
      '#### A detail',
      '',
      '::keywords[identity]',
      '',
      '## Next',
      '',
      'Text.',
    ].join('\n');
    expect(sections(body).map((s) => [s.headingId, s.keywords])).toEqual([
      ['identity-versus-equality', ['===', '!==', 'strict equality', '{...a, ...b}', 'identity']],
      ['next', undefined],
    ]);
  });

  it('is never shown, and leaves the text and the headings as they were', () => {
    const body = '## Merging\n\n::keywords[`{...a, ...b}`, object spread]\n\nUse `|`.';
    const html = renderBody(body);
    expect(html).not.toContain('keywords');
    expect(html).not.toContain('object spread');
    expect(compileBody(body).sections.find((s) => s.headingId === 'merging')).toMatchObject({
      heading: 'Merging',
      text: 'Use |.',
      code: '|',
    });
  });

  it('other leaf directives are still text, as remark-directive misread them', () => {
    expect(renderBody('## Times\n\n::10:30 is a time')).toContain('::10:30 is a time');
  });

  it.each([
    ['before the first heading', '::keywords[`===`]\n\n## A', 'put it after a "##" or "###" heading'],
    ['inside a list', '## A\n\n- item\n\n  ::keywords[x]', 'must stand on its own line'],
    ['empty', '## A\n\n::keywords[]', 'needs at least one keyword'],
    ['with attributes', '## A\n\n::keywords[x]{lang=js}', 'takes no attributes'],
  ])('is an error %s, with its line', (_, body, message) => {
    const error = thrown(() => compileBody(body));
    expect(error).toBeInstanceOf(BookError);
    expect(error.message).toContain(message);
    expect((error as BookError).position?.line).toBeGreaterThan(4);
  });
});

describe('search sections', () => {
  it("keep the inline code of the heading and of the text apart from the comparisons' JavaScript", () => {
    const body = [
      '## The `?.` operator',
      '',
      'Python has no `?.`: chain `d.get(k, {})`.',
      '',
      '<Compare>',
      '',
      '```javascript',
      'console.log(a?.b);',
      '```',
      '',
      '```python',
      'print(a.get("b"))',
      '```',
      '',
      '</Compare>',
    ].join('\n');
    expect(sections(body)[0]).toMatchObject({
      heading: 'The ?. operator',
      headingCode: '?.',
      code: '?.\nd.get(k, {})',
      javascript: 'console.log(a?.b);',
    });
  });
});
