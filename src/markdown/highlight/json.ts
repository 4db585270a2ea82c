import { matchAt, type Token, TokenList } from './tokens.js';

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_]\w*/y;

/** Cuts JSON into coloured tokens: keys, strings, numbers, `true`/`false`/`null` and punctuation. */
export function lexJson(code: string): Token[] {
  const out = new TokenList();
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    if (c === '"') {
      let end = i + 1;
      while (end < code.length && code[end] !== '"' && code[end] !== '\n') end += code[end] === '\\' ? 2 : 1;
      end = Math.min(code[end] === '"' ? end + 1 : end, code.length);
      let after = end;
      while (/[ \t\r\n]/.test(code[after] ?? '')) after++;
      out.push(code.slice(i, end), code[after] === ':' ? 'attr' : 'string');
      i = end;
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      const number = matchAt(NUMBER, code, i);
      if (number) {
        out.push(number, 'number');
        i += number.length;
        continue;
      }
    }
    const word = matchAt(WORD, code, i);
    if (word) {
      out.push(word, word === 'true' || word === 'false' || word === 'null' ? 'literal' : undefined);
      i += word.length;
      continue;
    }
    out.push(c, '{}[],:'.includes(c) ? 'punct' : undefined);
    i++;
  }
  return out.tokens;
}
