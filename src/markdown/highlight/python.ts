import { lexFormatField } from './interpolations.js';
import {
  type FieldSyntax,
  IDENTIFIER,
  lexStringLiteral,
  lineEnd,
  matchAt,
  NUMBER,
  skipBlanks,
  startsNumber,
  type Token,
  type TokenClass,
  TokenList,
} from './tokens.js';

const KEYWORDS = new Set([
  'and',
  'as',
  'assert',
  'async',
  'await',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
]);
/** Keywords only at the start of a statement (`match x:`), names anywhere else (`match = re.match(...)`). */
const SOFT_KEYWORDS = new Set(['match', 'case', 'type']);
const LITERALS = new Set(['True', 'False', 'None', 'NotImplemented', 'Ellipsis', '__debug__']);
const SELF = new Set(['self', 'cls']);
const BUILTINS = new Set([
  'abs',
  'aiter',
  'all',
  'anext',
  'any',
  'ascii',
  'bin',
  'bool',
  'breakpoint',
  'bytearray',
  'bytes',
  'callable',
  'chr',
  'classmethod',
  'compile',
  'complex',
  'delattr',
  'dict',
  'dir',
  'divmod',
  'enumerate',
  'eval',
  'exec',
  'filter',
  'float',
  'format',
  'frozenset',
  'getattr',
  'globals',
  'hasattr',
  'hash',
  'help',
  'hex',
  'id',
  'input',
  'int',
  'isinstance',
  'issubclass',
  'iter',
  'len',
  'list',
  'locals',
  'map',
  'max',
  'memoryview',
  'min',
  'next',
  'object',
  'oct',
  'open',
  'ord',
  'pow',
  'print',
  'property',
  'range',
  'repr',
  'reversed',
  'round',
  'set',
  'setattr',
  'slice',
  'sorted',
  'staticmethod',
  'str',
  'sum',
  'super',
  'tuple',
  'type',
  'vars',
  'zip',
  '__import__',
]);
/** A string's prefix (r, b, f, t, u and their pairs) and opening quote. */
const STRING_START = /([rRbBuUfFtT]{0,2})('''|"""|'|")/y;
const DECORATOR = /@[\p{L}_][\p{L}\p{N}_.]*/uy;
/** CamelCase names are classes (and exceptions) by convention; ALL_CAPS ones are constants. */
const CAPITALIZED = /^_?[A-Z]\w*[a-z]/;

/**
 * Cuts Python source into coloured tokens: keywords, strings (f-string fields coloured as code,
 * their braces as punctuation), numbers, comments, decorators, names being defined, calls, attributes, built-in
 * functions, classes by their CamelCase names, `self` and `cls`.
 */
export function lexPython(code: string): Token[] {
  const out = new TokenList();
  const n = code.length;
  let i = 0;
  let atStatementStart = true; // only blanks since the line began
  let defining: TokenClass | undefined; // after `def` or `class`
  let afterDot = false;
  const prompts = code.includes('>>> ');
  while (i < n) {
    const c = code[i];
    if (c === '\n') {
      out.push(c);
      i++;
      atStatementStart = true;
      afterDot = false;
      continue;
    }
    if (c === ' ' || c === '\t') {
      out.push(c);
      i++;
      continue;
    }
    const wasStatementStart = atStatementStart;
    atStatementStart = false;
    if (c === '#') {
      const end = lineEnd(code, i);
      out.push(code.slice(i, end), 'comment');
      i = end;
      continue;
    }
    STRING_START.lastIndex = i;
    const opening = STRING_START.exec(code);
    if (opening) {
      i = lexString(code, i, opening[1].length, out);
      afterDot = false;
      continue;
    }
    if (startsNumber(code, i)) {
      const number = matchAt(NUMBER, code, i)!;
      const imaginary = /[jJ]/.test(code[i + number.length] ?? '') ? 1 : 0;
      out.push(code.slice(i, i + number.length + imaginary), 'number');
      i += number.length + imaginary;
      continue;
    }
    const name = matchAt(IDENTIFIER, code, i);
    if (name !== undefined) {
      const cls = classify(name, code, i + name.length, { defining, afterDot, statementStart: wasStatementStart });
      if (name === 'def' && cls === 'keyword') defining = 'function';
      else if (name === 'class' && cls === 'keyword') defining = 'class';
      else defining = undefined;
      out.push(name, cls);
      i += name.length;
      afterDot = false;
      continue;
    }
    if (wasStatementStart && c === '@') {
      const decorator = matchAt(DECORATOR, code, i);
      if (decorator) {
        out.push(decorator, 'meta');
        i += decorator.length;
        continue;
      }
    }
    if (
      wasStatementStart &&
      prompts &&
      (code.startsWith('>>> ', i) ||
        code.startsWith('... ', i) ||
        /^(>>>|\.\.\.)$/.test(code.slice(i, lineEnd(code, i))))
    ) {
      out.push(code.slice(i, i + 3), 'meta');
      i += 3;
      atStatementStart = true; // the statement starts after the prompt
      continue;
    }
    if (code.startsWith('...', i)) {
      out.push('...'); // Ellipsis, not an attribute's dot
      i += 3;
      afterDot = false;
      continue;
    }
    afterDot = c === '.';
    out.push(c);
    i++;
  }
  return out.tokens;
}

interface NameContext {
  defining: TokenClass | undefined;
  afterDot: boolean;
  statementStart: boolean;
}

function classify(name: string, code: string, end: number, context: NameContext): TokenClass | undefined {
  // After a dot: a method call, a class, else an attribute (coloured as JavaScript's properties are).
  if (context.afterDot)
    return CAPITALIZED.test(name) ? 'class' : code[skipBlanks(code, end)] === '(' ? 'function' : 'attr';
  if (context.defining) return context.defining;
  if (KEYWORDS.has(name)) return 'keyword';
  if (LITERALS.has(name)) return 'literal';
  const next = skipBlanks(code, end);
  if (SOFT_KEYWORDS.has(name) && context.statementStart && next > end && /[^\s=.,)\]:(]/.test(code[next] ?? ''))
    return 'keyword';
  if (SELF.has(name)) return 'self';
  // A keyword argument or an assignment (`key=len`, `type = "x"`) names no built-in.
  const assigned = code[next] === '=' && code[next + 1] !== '=';
  if (BUILTINS.has(name) && !assigned) return 'builtin';
  if (CAPITALIZED.test(name)) return 'class';
  if (code[next] === '(') return 'function';
  return undefined;
}

/** An f-string's (or t-string's) `{fields}`: their expressions are Python. */
const FORMAT_FIELDS: FieldSyntax = { open: '{', lex: (field, out) => lexFormatField(field, lexPython, out) };

/**
 * A string literal from its prefix at `start` to its closing quote (or, unclosed, the line's or
 * code's end); an f-string's `{fields}` are lexed as code, `{{` stays part of the string.
 */
function lexString(code: string, start: number, prefixLength: number, out: TokenList): number {
  const prefix = code.slice(start, start + prefixLength);
  const triple = code.startsWith('"""', start + prefixLength) || code.startsWith("'''", start + prefixLength);
  const closing = code.slice(start + prefixLength, start + prefixLength + (triple ? 3 : 1));
  const formatted = /[fFtT]/.test(prefix);
  return lexStringLiteral(
    code,
    start,
    start + prefixLength + closing.length,
    { closing, multiline: triple, escapes: true, fields: formatted ? FORMAT_FIELDS : undefined, doubledBraces: true },
    out,
  );
}
