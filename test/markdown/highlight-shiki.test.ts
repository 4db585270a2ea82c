import type { Highlighter } from 'shiki';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lexJavaScript } from '../../src/markdown/highlight/javascript.js';
import { lexPython } from '../../src/markdown/highlight/python.js';
import type { Token } from '../../src/markdown/highlight/tokens.js';
import { bookCodeBlocks } from '../helpers/book-code-blocks.js';
import {
  type Category,
  type Difference,
  differences,
  loadShiki,
  ourCategories,
  shikiCategories,
} from '../helpers/shiki-categories.js';

/**
 * The differential test of pybook's own lexers: every Python and JavaScript/TypeScript block of
 * both book languages, categorised character by character by our lexers and by Shiki's TextMate
 * grammars (test/helpers/shiki-categories.ts says which categories and why). Where they differ
 * and we are right, the difference is listed below with its reason; any other is a bug.
 */

interface AcceptedDifference {
  language: 'python' | 'javascript';
  ours: Category;
  shiki: Category;
  /** The whole text of the differing run, or of pybook's token it lies in. */
  text?: RegExp;
  token?: RegExp;
  reason: string;
}

/** A raw string literal (`r"…"`, `rb'''…'''`). */
const RAW_STRING = /^[rR][bB]?("""|'''|"|')[\s\S]*\1$/;

const ACCEPTED: AcceptedDifference[] = [
  {
    language: 'python',
    ours: 'string',
    shiki: 'regexp',
    token: RAW_STRING,
    reason:
      'Shiki colours every raw string as a regular expression; a raw string is a string (a Windows path, a LaTeX formula) until it reaches re',
  },
  {
    language: 'python',
    ours: 'string',
    shiki: 'comment',
    token: RAW_STRING,
    reason: 'the same guess: a `#` inside a raw string is a comment only to re.VERBOSE, which the lexer cannot see',
  },
  {
    language: 'python',
    ours: 'keyword',
    shiki: 'code',
    text: /^type$/,
    reason: "`type Price = float` is a statement since Python 3.12; Shiki's grammar predates it",
  },
  {
    language: 'python',
    ours: 'field',
    shiki: 'code',
    text: /^(\.|:%[^{}]*)$/,
    reason:
      "a format spec is the field's own text; Shiki's pattern for specs knows neither one around a nested field (`:.{digits}f`) nor a datetime's (`:%Y-%m-%d`)",
  },
  {
    language: 'javascript',
    ours: 'code',
    shiki: 'keyword',
    text: /^constructor$/,
    reason: "`constructor` is a method's name, not a keyword: coloured as the other methods are",
  },
  {
    language: 'javascript',
    ours: 'literal',
    shiki: 'code',
    text: /^null$/,
    reason: '`null` as a TypeScript type (`raw: null`) is the same literal as the value',
  },
  {
    language: 'javascript',
    ours: 'keyword',
    shiki: 'code',
    text: /^import$/,
    reason: '`import(…)` is syntax, not a function call: the keyword keeps its colour',
  },
];

/**
 * The share of blocks that differ from Shiki at all, every difference accepted above. Measured
 * when the test was written: 304 of the 1,292 blocks before the fixes it led to (f-string and
 * template fields), 72 after. A share, since the book keeps growing. Book 1.3 raised it to 150
 * of 2,164 with no change to the lexers: its reviewed chapters added raw strings (the re module's
 * examples alone hold 51 of the raw-string differences of each language, pip's 16), every one
 * the listed raw-string difference; its reworked tooling exercises (the venv one writes Windows paths as raw strings)
 * made it 154 of 2,134, and the re module exercise's three new traps (each a raw-string pattern, in
 * both languages; the review's mixed-script numbers and lines that end after the number) 160 of
 * 2,152, again with no change to the lexers. It may only go down from there.
 */
const MAX_DIFFERING_SHARE = 160 / 2152;

interface Found extends Difference {
  where: string;
  language: 'python' | 'javascript';
  /** pybook's token the run starts in. */
  token: string;
}

/** The text of the token that holds the character at `index`. */
function tokenAt(tokens: Token[], index: number): string {
  let end = 0;
  for (const { text } of tokens) if ((end += text.length) > index) return text;
  return '';
}

describe("pybook's lexers against Shiki, on every Python and JavaScript/TypeScript block of the book", () => {
  const blocks = bookCodeBlocks().filter(
    (block) => block.language === 'python' || block.language === 'javascript' || block.language === 'typescript',
  );
  let shiki: Highlighter;
  const found: Found[] = [];
  const shikiSaw = new Set<Category>();
  let differingBlocks = 0;
  beforeAll(async () => {
    shiki = await loadShiki();
    for (const { where, language, code } of blocks) {
      const tokens = language === 'python' ? lexPython(code) : lexJavaScript(code, language === 'typescript');
      const theirs = shikiCategories(shiki, language!, code);
      for (const category of theirs) shikiSaw.add(category);
      const runs = differences(code, ourCategories(tokens), theirs);
      if (runs.length) differingBlocks++;
      for (const run of runs) {
        const line = code.slice(0, run.at).split('\n').length - 1;
        found.push({
          ...run,
          where: `${where} (+${line} lines)`,
          language: language === 'python' ? 'python' : 'javascript',
          token: tokenAt(tokens, run.at),
        });
      }
    }
  });
  afterAll(() => shiki?.dispose());

  const accepted = (run: Found) =>
    ACCEPTED.find(
      (a) =>
        a.language === run.language &&
        a.ours === run.ours &&
        a.shiki === run.shiki &&
        (a.text ? a.text.test(run.text) : a.token!.test(run.token)),
    );

  it('differs only where a listed difference says why, in no more blocks than before', () => {
    expect(blocks.length).toBeGreaterThan(1200);
    const unexplained = found
      .filter((run) => !accepted(run))
      .map((run) => `${run.where}: ${JSON.stringify(run.text)} is ${run.ours} to pybook, ${run.shiki} to Shiki`);
    expect(unexplained).toEqual([]);
    // Every listed difference still happens: one that no longer does is taken off the list.
    expect(ACCEPTED.filter((a) => !found.some((run) => accepted(run) === a)).map((a) => a.reason)).toEqual([]);
    expect(differingBlocks / blocks.length, `${differingBlocks} of ${blocks.length} blocks differ`).toBeLessThanOrEqual(
      MAX_DIFFERING_SHARE,
    );
  });

  it('the comparison sees what it compares: every category in the book, f-string and template fields', () => {
    expect([...shikiSaw].sort()).toEqual([
      'code',
      'comment',
      'field',
      'keyword',
      'literal',
      'number',
      'regexp',
      'string',
    ]);
    expect(shikiCategories(shiki, 'python', 'f"a{x:>4}" # c').join(' ')).toBe(
      'string string string field code field field field field string code comment comment comment',
    );
    expect(shikiCategories(shiki, 'javascript', '`a${b}` / 2').join(' ')).toBe(
      'string string field field code field string code code code number',
    );
  });

  it('finds a wrong colour: a template field left in the string colour differs from Shiki', () => {
    const code = 'const s = `total: ${n * 2}`;';
    const wrong: Token[] = [
      { text: 'const', cls: 'keyword' },
      { text: ' s = ' },
      { text: '`total: ${n * 2}`', cls: 'string' },
      { text: ';' },
    ];
    expect(differences(code, ourCategories(wrong), shikiCategories(shiki, 'javascript', code))).toEqual([
      { at: 18, text: '${', ours: 'string', shiki: 'field' },
      { at: 20, text: 'n *', ours: 'string', shiki: 'code' },
      { at: 24, text: '2', ours: 'string', shiki: 'number' },
      { at: 25, text: '}', ours: 'string', shiki: 'field' },
    ]);
    expect(differences(code, ourCategories(lexJavaScript(code)), shikiCategories(shiki, 'javascript', code))).toEqual(
      [],
    );
  });
});
