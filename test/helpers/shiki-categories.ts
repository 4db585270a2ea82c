import { createHighlighter, type Highlighter } from 'shiki';
import { INITIAL } from 'shiki/textmate';
import type { Token } from '../../src/markdown/highlight/tokens.js';

/**
 * The categories pybook's lexers and Shiki's TextMate grammars are compared by. They are the
 * lexical ones, which both must agree on: where a comment, a string, a regular expression, a
 * number, a literal constant or a keyword starts and stops, and which part of an f-string or
 * template is an interpolated field's punctuation. The colours of names (calls, classes by their
 * CamelCase, built-ins, attributes, `self`) follow conventions the grammars do not share (Shiki
 * has no CamelCase rule, colours `print(` as a call and `print` alone as a type), so every name and
 * operator is `code` on both sides.
 */
export type Category = 'comment' | 'string' | 'regexp' | 'number' | 'literal' | 'keyword' | 'field' | 'code';

/** The category of each character of the code by pybook's tokens. */
export function ourCategories(tokens: Token[]): Category[] {
  const categories: Category[] = [];
  for (const { text, cls } of tokens) {
    const category = ourCategory(cls);
    for (let i = 0; i < text.length; i++) categories.push(category);
  }
  return categories;
}

function ourCategory(cls: Token['cls']): Category {
  switch (cls) {
    case 'comment':
    case 'string':
    case 'regexp':
    case 'number':
    case 'literal':
    case 'keyword':
      return cls;
    case 'punct':
      return 'field'; // Python and JavaScript use it for interpolations' punctuation only
    default:
      return 'code';
  }
}

const SHIKI_LANGUAGES: Record<string, string> = {
  python: 'python',
  javascript: 'javascript',
  typescript: 'typescript',
};

/** Shiki with the grammars compared (bundled with the package: nothing is downloaded). */
export async function loadShiki(): Promise<Highlighter> {
  return createHighlighter({ langs: Object.values(SHIKI_LANGUAGES), themes: [] });
}

/**
 * The category of each character of the code by Shiki's grammar for `language`. The grammar is
 * read through `getLanguage(…).tokenizeLine`, the TextMate API, because `codeToTokensBase`'s
 * `includeExplanation` throws on some lines (`print(len(self.items))`) in Shiki 4.6.
 */
export function shikiCategories(shiki: Highlighter, language: string, code: string): Category[] {
  const grammar = shiki.getLanguage(SHIKI_LANGUAGES[language]);
  const categories: Category[] = [];
  let state = INITIAL;
  for (const line of code.split('\n')) {
    if (categories.length) categories.push('code'); // the line break
    const { tokens, ruleStack } = grammar.tokenizeLine(line, state);
    for (const token of tokens) {
      const text = line.slice(token.startIndex, token.endIndex);
      const category = shikiCategory(token.scopes, text);
      for (let i = 0; i < text.length; i++) categories.push(category);
    }
    state = ruleStack;
  }
  return categories;
}

/** The category of a token from its scopes (outermost first) and text. */
export function shikiCategory(scopes: string[], text: string): Category {
  const has = (prefix: string) => scopes.some((scope) => scope.startsWith(prefix));
  const lastIndex = (prefix: string) => {
    for (let i = scopes.length - 1; i >= 0; i--) if (scopes[i].startsWith(prefix)) return i;
    return -1;
  };
  if (has('comment.')) return 'comment';
  const innermost = scopes[scopes.length - 1] ?? '';
  // A field's braces, and in an f-string its conversion and format spec (`!r`, `:.2f`); `{name}`
  // and `%s` in a plain string are the string's own text.
  const fstring = has('meta.fstring');
  if (innermost.startsWith('punctuation.definition.template-expression')) return 'field';
  if (
    fstring &&
    (innermost.startsWith('constant.character.format.placeholder') || innermost.startsWith('storage.type.format'))
  )
    return 'field';
  // A template's `${…}` sits inside the string's scope: the string ends where the field begins.
  const inString = lastIndex('string.') > Math.max(lastIndex('meta.template.expression'), lastIndex('meta.embedded'));
  if (inString) return has('string.regexp') ? 'regexp' : 'string';
  if (fstring && innermost.startsWith('constant.character.escape')) return 'string'; // `\n` in an f-string's text
  if (has('constant.numeric')) return 'number';
  if (has('constant.language')) return 'literal';
  // Word operators (`not`, `in`, `typeof`, `new`, `yield from`) are keywords; `+`, `=>`, `==` are code.
  if (/^[\p{L}_$][\p{L}\p{N}_$ ]*$/u.test(text) && (has('keyword.') || has('storage.type') || has('storage.modifier')))
    return 'keyword';
  return 'code';
}

/** A run of characters the two categorise differently. */
export interface Difference {
  at: number;
  text: string;
  ours: Category;
  shiki: Category;
}

/** The runs of non-blank characters where the categories differ (neighbours with the same pair merged). */
export function differences(code: string, ours: Category[], shiki: Category[]): Difference[] {
  const runs: Difference[] = [];
  let last: Difference | undefined;
  for (let i = 0; i < code.length; i++) {
    const blank = /\s/.test(code[i]);
    if (blank || ours[i] === shiki[i]) {
      if (!blank) last = undefined;
      else if (last) last.text += code[i];
      continue;
    }
    if (last && last.ours === ours[i] && last.shiki === shiki[i]) last.text += code[i];
    else runs.push((last = { at: i, text: code[i], ours: ours[i], shiki: shiki[i] }));
  }
  for (const run of runs) run.text = run.text.trimEnd();
  return runs;
}
