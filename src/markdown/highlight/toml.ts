import { lexStringLiteral, lineEnd, matchAt, type Token, TokenList } from './tokens.js';

/** A key before `=`: bare, quoted or dotted (`tool.poetry.name`, `"key with spaces"`). */
const KEY = /(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*'))*(?=\s*=)/y;
/** Numbers, and dates and times (`1979-05-27T07:32:00Z`), which share the number colour. */
const NUMBER =
  /[+-]?(?:0x[\da-fA-F_]+|0o[0-7_]+|0b[01_]+|inf|nan|\d[\d_]*(?:-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)?)?|:\d\d(?::\d\d(?:\.\d+)?)?)?(?:\.\d[\d_]*)?(?:[eE][+-]?\d[\d_]*)?)/y;
const TABLE = /\[\[?[^\]\n]*\]\]?/y;
const BOOLEAN = /(?:true|false)\b/y;

/** Cuts TOML (pyproject.toml and friends) into coloured tokens: tables, keys, strings, numbers and dates, booleans, comments. */
export function lexToml(code: string): Token[] {
  const out = new TokenList();
  let i = 0;
  let lineStart = true;
  while (i < code.length) {
    const c = code[i];
    if (c === '\n') {
      out.push(c);
      i++;
      lineStart = true;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      out.push(c);
      i++;
      continue;
    }
    const wasLineStart = lineStart;
    lineStart = false;
    if (c === '#') {
      const end = lineEnd(code, i);
      out.push(code.slice(i, end), 'comment');
      i = end;
      continue;
    }
    if (wasLineStart && c === '[') {
      const table = matchAt(TABLE, code, i);
      if (table) {
        out.push(table, 'section');
        i += table.length;
        continue;
      }
    }
    const key = matchAt(KEY, code, i);
    if (key) {
      out.push(key, 'attr');
      i += key.length;
      continue;
    }
    if (c === '"' || c === "'") {
      // Basic ("…") and literal ('…') strings, and their multi-line forms ('''…''', """…""").
      const closing = code.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      i = lexStringLiteral(
        code,
        i,
        i + closing.length,
        { closing, multiline: closing.length === 3, escapes: c === '"' },
        out,
      );
      continue;
    }
    const number =
      /[\d+-]/.test(c) || code.startsWith('inf', i) || code.startsWith('nan', i) ? matchAt(NUMBER, code, i) : undefined;
    if (number) {
      out.push(number, 'number');
      i += number.length;
      continue;
    }
    const word = matchAt(BOOLEAN, code, i);
    if (word) {
      out.push(word, 'literal');
      i += word.length;
      continue;
    }
    out.push(c);
    i++;
  }
  return out.tokens;
}
