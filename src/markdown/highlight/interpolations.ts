import type { Token, TokenList } from './tokens.js';

/**
 * Interpolated fields inside strings: a template literal's `${…}` and an f-string's `{…}`. The
 * expression inside is code and gets the language's own colours; the punctuation that opens and
 * closes the field (and an f-string's `=`, conversion `!r` and format spec `:>10`) is `punct`,
 * so the reader sees where the string stops and the code starts.
 */

/** Lexes an expression (the language's lexer, on the expression's text alone). */
export type ExpressionLexer = (expression: string) => Token[];

/** A template literal's `${expression}`; `field` runs from `${` to its `}` (absent when left open). */
export function lexTemplateField(field: string, lexExpression: ExpressionLexer, out: TokenList): void {
  const closed = field.endsWith('}');
  out.push('${', 'punct');
  pushAll(lexExpression(field.slice(2, closed ? -1 : undefined)), out);
  if (closed) out.push('}', 'punct');
}

/**
 * An f-string's `{expression=!conversion:spec}`; `field` runs from `{` to its `}` (absent when
 * left open). The spec may hold fields of its own (`{price:>{width}}`), lexed the same way.
 */
export function lexFormatField(field: string, lexExpression: ExpressionLexer, out: TokenList): void {
  const closed = field.endsWith('}');
  const inner = field.slice(1, closed ? -1 : undefined);
  const expressionEnd = formatExpressionEnd(inner);
  // `{total = }` echoes the expression: its `=` (with the blanks around it) is the field's own.
  const echo = /\s*=\s*$/.exec(inner.slice(0, expressionEnd));
  const expression = echo ? inner.slice(0, echo.index) : inner.slice(0, expressionEnd);
  out.push('{', 'punct');
  pushAll(lexExpression(expression), out);
  lexFormatSpec(inner.slice(expression.length), lexExpression, out);
  if (closed) out.push('}', 'punct');
}

/** The `=`, conversion and spec after an f-string field's expression: punctuation, but for nested fields. */
function lexFormatSpec(spec: string, lexExpression: ExpressionLexer, out: TokenList): void {
  let start = 0;
  for (let open = spec.indexOf('{'); open !== -1; open = spec.indexOf('{', start)) {
    out.push(spec.slice(start, open), 'punct');
    const close = fieldClose(spec, open);
    lexFormatField(spec.slice(open, close), lexExpression, out);
    start = close;
  }
  out.push(spec.slice(start), 'punct');
}

/**
 * Where an f-string field's expression ends: at the first `!` (not `!=`) or `:` outside brackets
 * and strings, else at the field's end. A `:` inside brackets is a slice or a dict's, not a spec.
 */
function formatExpressionEnd(inner: string): number {
  let depth = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === '"' || c === "'") i = quotedEnd(inner, i) - 1;
    else if (depth === 0 && ((c === '!' && inner[i + 1] !== '=') || c === ':')) return i;
  }
  return inner.length;
}

/** The end (exclusive) of the `{…}` field nested in a spec at `open`, or the spec's end. */
function fieldClose(spec: string, open: number): number {
  let depth = 0;
  for (let i = open; i < spec.length; i++) {
    if (spec[i] === '{') depth++;
    else if (spec[i] === '}' && --depth === 0) return i + 1;
  }
  return spec.length;
}

/** The end (exclusive) of the quoted string that opens at `open`, or the text's end. */
function quotedEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === text[open]) return i + 1;
  }
  return text.length;
}

function pushAll(tokens: Token[], out: TokenList): void {
  for (const { text, cls } of tokens) out.push(text, cls);
}
