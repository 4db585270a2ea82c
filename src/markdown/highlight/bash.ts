import { lineEnd, matchAt, type Token, TokenList } from './tokens.js';

const KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'for',
  'while',
  'until',
  'do',
  'done',
  'case',
  'esac',
  'in',
  'function',
  'select',
  'return',
  'time',
]);
const BUILTINS = new Set([
  'alias',
  'cd',
  'command',
  'echo',
  'eval',
  'exec',
  'exit',
  'export',
  'local',
  'printf',
  'pwd',
  'read',
  'set',
  'shift',
  'source',
  'test',
  'trap',
  'type',
  'unset',
  'wait',
  'kill',
]);
const LITERALS = new Set(['true', 'false']);
/** `$NAME`, `${...}`, `$1`, `$?` and the other special parameters. */
const VARIABLE = /\$(?:\{[^}\n]*\}?|[A-Za-z_][A-Za-z0-9_]*|[0-9?@#*$!-])/y;
/** A word: what the shell splits on blanks and operators. */
const WORD = /[^\s;|&<>()'"`$\\]+/y;

/**
 * Cuts a shell session or script into coloured tokens: comments, strings (variables inside
 * double quotes keep their colour), variables, keywords and the shell's built-in commands.
 */
export function lexBash(code: string): Token[] {
  const out = new TokenList();
  const n = code.length;
  let i = 0;
  while (i < n) {
    const c = code[i];
    if (c === '#' && (i === 0 || /[\s;|&(]/.test(code[i - 1]))) {
      const end = lineEnd(code, i);
      out.push(code.slice(i, end), i === 0 && code[1] === '!' ? 'meta' : 'comment');
      i = end;
      continue;
    }
    if (c === "'") {
      const close = code.indexOf("'", i + 1);
      const end = close === -1 ? n : close + 1;
      out.push(code.slice(i, end), 'string');
      i = end;
      continue;
    }
    if (c === '"') {
      i = lexDoubleQuoted(code, i, out);
      continue;
    }
    if (c === '\\') {
      out.push(code.slice(i, i + 2));
      i += 2;
      continue;
    }
    if (c === '$') {
      const variable = matchAt(VARIABLE, code, i);
      out.push(variable ?? c, variable ? 'variable' : undefined);
      i += variable?.length ?? 1;
      continue;
    }
    const word = matchAt(WORD, code, i);
    if (word !== undefined) {
      // `NAME=value` assigns: the name is a variable.
      const assignment = /^[A-Za-z_][A-Za-z0-9_]*=/.exec(word)?.[0];
      if (assignment) {
        out.push(assignment.slice(0, -1), 'variable');
        out.push(word.slice(assignment.length - 1));
      } else
        out.push(
          word,
          KEYWORDS.has(word) ? 'keyword' : BUILTINS.has(word) ? 'builtin' : LITERALS.has(word) ? 'literal' : undefined,
        );
      i += word.length;
      continue;
    }
    out.push(c);
    i++;
  }
  return out.tokens;
}

function lexDoubleQuoted(code: string, start: number, out: TokenList): number {
  let i = start + 1;
  let partStart = start;
  while (i < code.length && code[i] !== '"') {
    if (code[i] === '\\') {
      i += 2;
      continue;
    }
    if (code[i] === '$') {
      const variable = matchAt(VARIABLE, code, i);
      if (variable) {
        out.push(code.slice(partStart, i), 'string');
        out.push(variable, 'variable');
        i = partStart = i + variable.length;
        continue;
      }
    }
    i++;
  }
  i = Math.min(i + 1, code.length);
  out.push(code.slice(partStart, i), 'string');
  return i;
}
