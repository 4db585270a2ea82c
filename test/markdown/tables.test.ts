import { describe, expect, it } from 'vitest';
import { renderBody } from '../fixtures/render.js';

describe('GFM tables', () => {
  it('render as tables that keyboard users can scroll (tabindex=0)', () => {
    const html = renderBody('| JavaScript | Python |\n|---|---|\n| `push` | `append` |\n');
    expect(html).toMatch(/<table tabindex="0">/);
    expect(html).toContain('<code>append</code>');
  });
});
