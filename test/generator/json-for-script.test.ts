import { describe, expect, it } from 'vitest';
import { jsonForScript } from '../../src/generator/render-page.js';

describe('JSON inside a script element', () => {
  it('escapes every "<" and both line separators, and still reads back as the same value', () => {
    const value = { html: '<p>a</p><script>alert(1)</script><!-- x -->', text: 'line\u2028para\u2029end', n: [1, '<'] };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<\u2028\u2029]/);
    expect(json).toContain('\\u003c/script>');
    expect(json).toContain('line\\u2028para\\u2029end');
    expect(JSON.parse(json)).toEqual(value);
  });

  it('leaves JSON without them as JSON.stringify writes it', () => {
    const value = { title: 'Sets & maps', quote: '"x"', chinese: '集合' };
    expect(jsonForScript(value)).toBe(JSON.stringify(value));
  });
});
