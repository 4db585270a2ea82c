/**
 * What every language's lexer produces: the code cut into pieces, each with the colour class it
 * is shown in (none for plain code). The pieces always add up to the code, character for
 * character: a lexer only decides where colours start and stop, never what is shown.
 */
export type TokenClass =
  | 'keyword'
  | 'string'
  | 'number'
  | 'literal'
  | 'comment'
  | 'function'
  | 'class'
  | 'meta'
  | 'builtin'
  | 'regexp'
  | 'attr'
  | 'variable'
  | 'self'
  | 'section'
  | 'punct';

export interface Token {
  text: string;
  cls?: TokenClass;
}

/** Collects tokens, merging neighbours of the same class so that the HTML has fewer spans. */
export class TokenList {
  readonly tokens: Token[] = [];

  push(text: string, cls?: TokenClass): void {
    if (!text) return;
    const last = this.tokens[this.tokens.length - 1];
    if (last && last.cls === cls) last.text += text;
    else this.tokens.push(cls ? { text, cls } : { text });
  }
}

/** Letters, digits and `_` of any script: the identifiers of Python, and of JavaScript with `$`. */
export const IDENTIFIER = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/uy;
export const JS_IDENTIFIER = /[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*/uy;
/** Decimal, hexadecimal, octal and binary numbers with `_` separators, fractions and exponents. */
export const NUMBER =
  /0[xX][\da-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*(?:\.(?!\.)[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?/y;

/** The text a sticky pattern matches at `index`, or undefined. */
export function matchAt(pattern: RegExp, code: string, index: number): string | undefined {
  pattern.lastIndex = index;
  return pattern.exec(code)?.[0];
}

/** The end (exclusive) of the line that `from` is on. */
export function lineEnd(code: string, from: number): number {
  const end = code.indexOf('\n', from);
  return end === -1 ? code.length : end;
}

/** Index of the next non-blank character (spaces and tabs only) at or after `index`. */
export function skipBlanks(code: string, index: number): number {
  while (code[index] === ' ' || code[index] === '\t') index++;
  return index;
}

/** Whether `index` starts a number (a digit, or a dot before a digit). */
export function startsNumber(code: string, index: number): boolean {
  const c = code.charCodeAt(index);
  if (c >= 48 && c <= 57) return true;
  const next = code.charCodeAt(index + 1);
  return c === 46 && next >= 48 && next <= 57;
}

/** How a kind of string literal is written. */
export interface StringSyntax {
  /** What ends it: `"`, `'''`, a backtick. */
  closing: string;
  /** May it run over several lines? A single-line one left open ends with its line. */
  multiline: boolean;
  /** Does a backslash keep the next character inside (TOML's '…' strings have no escapes)? */
  escapes: boolean;
  /** Its interpolated fields (an f-string's `{…}`, a template's `${…}`), if it has any. */
  fields?: FieldSyntax;
  /** `{{` is a literal brace, not a field (f-strings). */
  doubledBraces?: boolean;
}

export interface FieldSyntax {
  /** What opens a field: `{` in an f-string, `${` in a template. */
  open: string;
  /** Pushes the tokens of one field, from its opening to its closing brace (included, when there is one). */
  lex(field: string, out: TokenList): void;
}

/**
 * Pushes a string literal that starts at `start` (its prefix and opening quote) and whose text
 * begins at `textStart`; its fields are pushed by their own lexer. Returns where it ends (exclusive).
 */
export function lexStringLiteral(
  code: string,
  start: number,
  textStart: number,
  syntax: StringSyntax,
  out: TokenList,
): number {
  let i = textStart;
  let partStart = start;
  while (i < code.length) {
    const c = code[i];
    if (c === '\\' && syntax.escapes) {
      i += 2;
      continue;
    }
    if (c === '\n' && !syntax.multiline) break;
    if (code.startsWith(syntax.closing, i)) {
      i += syntax.closing.length;
      break;
    }
    if (syntax.fields && code.startsWith(syntax.fields.open, i)) {
      if (syntax.doubledBraces && code[i + 1] === '{') {
        i += 2;
        continue;
      }
      out.push(code.slice(partStart, i), 'string');
      const end = interpolationEnd(code, i + syntax.fields.open.length - 1, syntax.multiline);
      syntax.fields.lex(code.slice(i, end), out);
      i = partStart = end;
      continue;
    }
    i++;
  }
  i = Math.min(i, code.length);
  out.push(code.slice(partStart, i), 'string');
  return i;
}

/**
 * The end (exclusive) of an interpolation that opens at `open` (`{` in an f-string, `${` in a
 * template): the bracket that balances it, stepping over strings inside. A single-line string's
 * interpolation stops at the line's end.
 */
export function interpolationEnd(code: string, open: number, multiline: boolean): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const c = code[i];
    if (c === '\n' && !multiline) return i;
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    } else if (c === '"' || c === "'" || c === '`') {
      i++;
      while (i < code.length && code[i] !== c && (code[i] !== '\n' || c === '`')) i += code[i] === '\\' ? 2 : 1;
    }
  }
  return code.length;
}
