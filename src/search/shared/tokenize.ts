import elasticlunr from 'elasticlunr';

/**
 * The tokenizers that both the index build (Node) and the query (browser) use, so a query is cut
 * exactly as the text it should find. There are two: prose (stemmed words without stop words) for
 * titles, headings, descriptions and text, and code (identifiers as written, lower-cased, and
 * JavaScript's operators) for the comparisons' JavaScript and the inline code of the text. A query
 * is cut both ways and each field is searched with the tokens of its own kind. Chinese runs are
 * handed to a segmenter: jieba at build time, dictionary matching against the index's own
 * vocabulary in the browser.
 */
export type CjkSegmenter = (run: string) => string[];

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const CJK_RUN = '[\\u3400-\\u9fff\\uf900-\\ufaff]+';

/**
 * JavaScript's operators and syntax as search tokens, longest first (a token is the longest one
 * that matches): what a JavaScript engineer types to ask what Python writes instead (`===`, `=>`,
 * `...`, `${`, `?.`, `??`). Only code has them. Left out are the characters every line of code
 * has (`=`, `.`, `,`, `:`, `;`, brackets, `+`, `-`, `/`, `<`, `>`), `//` (JavaScript's comments,
 * URLs) and `--` (mostly command-line flags).
 */
export const SYMBOLS: readonly string[] = [
  '!==',
  '===',
  '**=',
  '...',
  '??=',
  '||=',
  '&&=',
  '=>',
  '==',
  '!=',
  '?.',
  '??',
  '||',
  '&&',
  '**',
  '++',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '|=',
  '&=',
  '^=',
  '${',
  '%',
  '?',
  '!',
  '`',
  '@',
  '&',
  '|',
  '^',
  '~',
  '*',
];
const SYMBOL_SET: ReadonlySet<string> = new Set(SYMBOLS);
// `?.` before a digit is a conditional and a number (`a?.5:b`), as JavaScript reads it.
const SYMBOL_PATTERN = SYMBOLS.map((symbol) =>
  symbol === '?.' ? '\\?\\.(?!\\d)' : symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
).join('|');

/** Whether a token is one of JavaScript's operators (SYMBOLS, `?:`, `{...}`): it matches only itself, never as a prefix. */
export const isSymbol = (token: string): boolean => SYMBOL_SET.has(token) || token === '?:' || token === '{...}';

const PROSE_TOKEN = new RegExp(`${CJK_RUN}|[a-z0-9]+(?:['’][a-z]+)?`, 'g');
/** Identifiers keep `_` and `$` (node_modules, __init__, $el); numbers are not code tokens. */
const CODE_TOKEN = new RegExp(`${CJK_RUN}|${SYMBOL_PATTERN}|[a-z_$][a-z0-9_$]*|[0-9]+`, 'g');

/** Chinese function words and particles too common to help find a chapter. */
export const ZH_STOP_WORDS: ReadonlySet<string> = new Set([
  '的',
  '了',
  '是',
  '在',
  '和',
  '与',
  '也',
  '就',
  '都',
  '而',
  '及',
  '或',
  '一个',
  '这',
  '那',
  '你',
  '我',
  '它',
  '们',
  '会',
  '把',
  '被',
  '让',
  '给',
  '吗',
  '吧',
  '呢',
  '啊',
  '很',
  '还',
  '对',
  '中',
  '上',
  '下',
  '时',
  '为',
  '以',
  '之',
  '其',
  '等',
  '并',
  '可以',
  '这个',
  '那个',
  '这样',
  '如果',
  '但是',
  '因为',
  '所以',
  '没有',
  '不是',
]);
const EN_STOP_WORDS = new Set(
  Object.keys((elasticlunr as unknown as { defaultStopWords: Record<string, boolean> }).defaultStopWords),
);

/** Stems by word: a book repeats its words, and the stemmer (a chain of regular expressions) is slow. */
const stems = new Map<string, string | undefined>();

export function normalizeLatin(word: string): string | undefined {
  if (stems.has(word)) return stems.get(word);
  const plain = word.replace(/['’][a-z]+$/, '');
  const stem = !plain || EN_STOP_WORDS.has(plain) ? undefined : elasticlunr.stemmer(plain);
  if (stems.size >= 100_000) stems.clear();
  stems.set(word, stem);
  return stem;
}

/** Prose: stemmed words without English stop words, Chinese words without Chinese stop words. */
export function tokenize(text: string, segment: CjkSegmenter): string[] {
  return proseTokensAt(text, segment).map(([token]) => token);
}

/** A token and where in the text the word it comes from starts. */
type Placed = [token: string, start: number];

function proseTokensAt(text: string, segment: CjkSegmenter): Placed[] {
  const tokens: Placed[] = [];
  for (const match of text.toLowerCase().matchAll(PROSE_TOKEN)) {
    const word = match[0];
    const start = match.index ?? 0;
    if (CJK.test(word[0])) {
      for (const piece of segment(word)) if (!ZH_STOP_WORDS.has(piece)) tokens.push([piece, start]);
    } else {
      const token = normalizeLatin(word);
      if (token) tokens.push([token, start]);
    }
  }
  return tokens;
}

/**
 * Code: identifiers as written (lower-cased, not stemmed, stop words kept: `for...of`, `this`,
 * `some`, `includes`, `node_modules`), each member access also as one token (`array.from`,
 * `process.argv`, `package.json`), and JavaScript's operators. One-letter names (`x`, `a`, `i`)
 * and numbers are in nearly every example and find nothing: they are left out. Two operators
 * count only where JavaScript means them: `?` between spaces (a conditional, not a regular
 * expression's `.*?` or TypeScript's `x?: T`; with its ` : ` on the same line it is the token
 * `?:`, the conditional operator), and `...` before what it spreads (`...args`,
 * `[...a]`), not the placeholder of `f(...)` or `[...]` nor the dots of `for...of`; either one alone (a query, a keyword,
 * an inline code span of its own) is the operator.
 */
export function codeTokens(text: string, segment: CjkSegmenter): string[] {
  return codeTokensAt(text, segment).map(([token]) => token);
}

function codeTokensAt(text: string, segment: CjkSegmenter): Placed[] {
  const tokens: Placed[] = [];
  const lower = text.toLowerCase();
  let previous: { start: number; end: number; name: string } | undefined;
  for (const match of lower.matchAll(CODE_TOKEN)) {
    const word = match[0];
    const start = match.index ?? 0;
    const end = start + word.length;
    if (CJK.test(word[0])) {
      for (const piece of segment(word)) if (!ZH_STOP_WORDS.has(piece)) tokens.push([piece, start]);
    } else if (SYMBOL_SET.has(word)) {
      if (meansOperator(word, lower, start, end)) tokens.push([operatorToken(word, lower, start, end), start]);
    } else if (/^[a-z_$]/.test(word)) {
      if (word.length > 1) tokens.push([word, start]);
      if (previous && previous.end === start - 1 && lower[previous.end] === '.')
        tokens.push([`${previous.name}.${word}`, previous.start]);
      previous = { start, end, name: word };
      continue;
    }
    previous = undefined;
  }
  return tokens;
}

/**
 * Where the operators of a displayed text stand, as the index reads them (`?` of a conditional is
 * the token `?:`, the dots of object spread `{...}`), for highlighting: [token, start, end].
 */
export function operatorsAt(text: string): [token: string, start: number, end: number][] {
  const found: [string, number, number][] = [];
  const lower = text.toLowerCase();
  for (const match of lower.matchAll(CODE_TOKEN)) {
    const word = match[0];
    const start = match.index ?? 0;
    const end = start + word.length;
    if (SYMBOL_SET.has(word) && meansOperator(word, lower, start, end))
      found.push([operatorToken(word, lower, start, end), start, end]);
  }
  return found;
}

/**
 * The token of an operator where its context makes it another one: `?` with its ` : ` on the same
 * line is the conditional operator `?:`, and `...` directly inside braces is object spread `{...}`
 * (what Python writes `**` or `|` for; spread elsewhere is `*`).
 */
function operatorToken(symbol: string, text: string, start: number, end: number): string {
  if (symbol === '?' && /^[^\n]*?\s:(?:\s|$)/.test(text.slice(end))) return '?:';
  if (symbol === '...' && innermostBracket(text, start) === '{') return '{...}';
  return symbol;
}

/** The innermost bracket still open at `at` on its line (strings are not told apart: good enough for a token). */
function innermostBracket(text: string, at: number): string | undefined {
  const open: string[] = [];
  for (let i = text.lastIndexOf('\n', at - 1) + 1; i < at; i++) {
    const c = text[i];
    if (c === '{' || c === '[' || c === '(') open.push(c);
    else if (c === '}' || c === ']' || c === ')') open.pop();
  }
  return open.at(-1);
}

const isSpace = (text: string, at: number) => at < 0 || at >= text.length || /\s/.test(text[at]);

function meansOperator(symbol: string, text: string, start: number, end: number): boolean {
  const alone = isSpace(text, start - 1) && isSpace(text, end);
  if (symbol === '?') return alone;
  // Spread and rest stand before what they spread and never right after a name (`for...of`).
  if (symbol === '...')
    return alone || (!/[a-z0-9_$]/.test(text[start - 1] ?? '') && /[a-z_$[({]/.test(text[end] ?? ''));
  return true;
}

/**
 * Headings are words with names in them (`print and console.log`, `venv versus node_modules`,
 * `The === operator`): their prose tokens, and the code tokens prose cannot make (operators,
 * member accesses, names with `_` or `$`).
 */
export function mixedTokens(text: string, segment: CjkSegmenter): string[] {
  return mixedOf(tokenize(text, segment), codeTokens(text, segment));
}

/** mixedTokens, from a text's prose and code tokens. */
export function mixedOf(prose: string[], code: string[]): string[] {
  return [...prose, ...code.filter((token) => !/^[a-z0-9]+$/.test(token) && !CJK.test(token[0]))];
}

/**
 * Keywords are what readers type, words and names alike: their prose tokens and every code token
 * that differs from those (`require` gives `requir` and `require`, so it is told from `requirements`).
 */
export function keywordTokens(text: string, segment: CjkSegmenter): string[] {
  return keywordsOf(tokenize(text, segment), codeTokens(text, segment));
}

/** keywordTokens, from a text's prose and code tokens. */
export function keywordsOf(prose: string[], code: string[]): string[] {
  const words = new Set(prose);
  return [...prose, ...code.filter((token) => !words.has(token))];
}

/**
 * Browser-side segmentation: forward maximum matching against the Chinese words of the index
 * (which jieba produced for this book), falling back to single characters.
 */
export function maximumMatchSegmenter(vocabulary: Set<string>, longest: number): CjkSegmenter {
  return (run) => {
    const pieces: string[] = [];
    let i = 0;
    while (i < run.length) {
      let n = Math.min(longest, run.length - i);
      while (n > 1 && !vocabulary.has(run.slice(i, i + n))) n--;
      pieces.push(run.slice(i, i + n));
      i += n;
    }
    return pieces;
  };
}
