import { describe, expect, it } from 'vitest';
import { repairOutlineTitles } from '../../src/export/node/pdf.js';

/** The outline's titles as Chromium writes them, against the document's own headings. */
describe('repairOutlineTitles', () => {
  const headings = ['目录', '关于本书', '面向的 Python 版本', '哈哈', 'Hello, world'];
  const repairs = (titles: string[], of = headings) =>
    repairOutlineTitles(
      titles.map((title) => ({ title })),
      of,
    );

  it('gives an entry that reads its heading, or parts of it, twice (a heading starting a page) the heading', () => {
    const titles = ['目录目录', '关于本书', '面向的 Python 版本面向的 Python 版本', '哈哈', 'Hello, worldHello, world'];
    expect(repairs(titles)).toEqual(
      new Map([
        [0, '目录'],
        [2, '面向的 Python 版本'],
        [4, 'Hello, world'],
      ]),
    );
    // The runs in Noto CJK painted twice, the inline code in DejaVu Sans Mono once.
    expect(repairs(['在在__post_init__中校验中校验'], ['在 __post_init__ 中校验'])).toEqual(
      new Map([[0, '在 __post_init__ 中校验']]),
    );
  });

  it('leaves the titles that are right, also when the heading itself repeats a word', () => {
    expect(repairs(headings).size).toBe(0);
    // White space as the PDF has it is not a difference.
    expect(repairs(['面向的Python版本'], ['面向的 Python 版本']).size).toBe(0);
  });

  it('changes nothing it cannot pair up: other lengths, or a title that is not its heading with more', () => {
    expect(repairs(['目录目录']).size).toBe(0);
    expect(repairs(['关于本书关于本书', '目录', '面向的 Python 版本', '哈哈', 'Hello, world']).size).toBe(0);
  });
});
