import { lexTemplateField } from './interpolations.js';
import {
  type FieldSyntax,
  JS_IDENTIFIER,
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
  // `using` declarations (explicit resource management, ES2026); a name elsewhere (see CONTEXTUAL).
  'using',
  'async',
  'await',
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'export',
  'extends',
  'finally',
  'for',
  'from',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'let',
  'new',
  'of',
  'return',
  'static',
  'switch',
  'throw',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'yield',
  'get',
  'set',
  'as',
]);
const TS_KEYWORDS = new Set([
  'type',
  'interface',
  'enum',
  'implements',
  'declare',
  'namespace',
  'readonly',
  'private',
  'public',
  'protected',
  'abstract',
  'satisfies',
  'keyof',
  'infer',
  'is',
  'asserts',
  'override',
  'unique',
]);
const TS_TYPES = new Set([
  'number',
  'string',
  'boolean',
  'any',
  'unknown',
  'never',
  'void',
  'object',
  'symbol',
  'bigint',
]);
const LITERALS = new Set(['true', 'false', 'null', 'undefined', 'NaN', 'Infinity']);
const SELF = new Set(['this', 'super']);
const BUILTINS = new Set([
  'console',
  'Math',
  'JSON',
  'Object',
  'Array',
  'Promise',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'WeakRef',
  'Symbol',
  'Number',
  'String',
  'Boolean',
  'BigInt',
  'Date',
  'RegExp',
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'AggregateError',
  'Intl',
  'Reflect',
  'Proxy',
  'globalThis',
  'window',
  'document',
  'process',
  'require',
  'module',
  'exports',
  'setTimeout',
  'setInterval',
  'clearTimeout',
  'clearInterval',
  'structuredClone',
  'fetch',
  'queueMicrotask',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'encodeURIComponent',
  'decodeURIComponent',
  'arguments',
  'Buffer',
  'URL',
  'URLSearchParams',
  'TextEncoder',
  'TextDecoder',
  'AbortController',
  'Uint8Array',
  'ArrayBuffer',
  'DataView',
  'Function',
  'Iterator',
  'Atomics',
]);
/** Keywords after which a `/` starts a regular expression rather than dividing. */
const BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);
/** Keywords whose `(…)` is followed by a statement, which may start with a regular expression. */
const CONDITION_KEYWORDS = new Set(['if', 'while', 'for', 'with']);
/** What `previous` is after the `)` that closes such a condition: `if (x) /re/.test(y)`. */
const CONDITION_END = 'condition)';
/** Keywords only in some places, names elsewhere. */
const CONTEXTUAL = new Set([
  'get',
  'set',
  'as',
  'of',
  'from',
  'static',
  'type',
  'is',
  'declare',
  'readonly',
  'namespace',
  'infer',
  'asserts',
  'override',
  'unique',
  'using',
]);
const CAPITALIZED = /^_?[A-Z]\w*[a-z]/;
/** A template's `${fields}`: their expressions are JavaScript (or TypeScript). */
const JS_TEMPLATE_FIELDS: FieldSyntax = {
  open: '${',
  lex: (field, out) => lexTemplateField(field, (expression) => lexJavaScript(expression), out),
};
const TS_TEMPLATE_FIELDS: FieldSyntax = {
  open: '${',
  lex: (field, out) => lexTemplateField(field, (expression) => lexJavaScript(expression, true), out),
};

/**
 * Cuts JavaScript (or, with `typescript`, TypeScript) into coloured tokens: keywords, strings
 * and templates (their `${fields}` coloured as code, the `${` and `}` as punctuation), regular
 * expressions, numbers, comments, names being defined, calls, properties and object keys,
 * built-ins, classes by their CamelCase names, `this`.
 */
export function lexJavaScript(code: string, typescript = false): Token[] {
  const out = new TokenList();
  const n = code.length;
  let i = 0;
  let defining: TokenClass | undefined;
  // The last token that was not blank: decides between a regular expression and a division,
  // a property and a name, an object key and a label.
  let previous = '';
  // One entry per open `(`: does it hold the condition of an `if`, `while`, `for` or `with`?
  const conditions: boolean[] = [];
  while (i < n) {
    const c = code[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      out.push(c);
      i++;
      continue;
    }
    if (c === '/' && code[i + 1] === '/') {
      const end = lineEnd(code, i);
      out.push(code.slice(i, end), 'comment');
      i = end;
      continue;
    }
    if (c === '/' && code[i + 1] === '*') {
      const close = code.indexOf('*/', i + 2);
      const end = close === -1 ? n : close + 2;
      out.push(code.slice(i, end), 'comment');
      i = end;
      continue;
    }
    if (i === 0 && code.startsWith('#!')) {
      const end = lineEnd(code, 0);
      out.push(code.slice(0, end), 'meta');
      i = end;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      const template = c === '`';
      const fields = template ? (typescript ? TS_TEMPLATE_FIELDS : JS_TEMPLATE_FIELDS) : undefined;
      i = lexStringLiteral(code, i, i + 1, { closing: c, multiline: template, escapes: true, fields }, out);
      previous = 'string';
      continue;
    }
    if (c === '/' && regexAllowed(previous)) {
      const end = regexEnd(code, i);
      if (end !== undefined) {
        out.push(code.slice(i, end), 'regexp');
        i = end;
        previous = 'regexp';
        continue;
      }
    }
    if (startsNumber(code, i)) {
      const number = matchAt(NUMBER, code, i)!;
      const end = i + number.length + (code[i + number.length] === 'n' ? 1 : 0);
      out.push(code.slice(i, end), 'number');
      i = end;
      previous = 'number';
      continue;
    }
    if (c === '#' && JS_IDENTIFIER.test(code[i + 1] ?? '')) {
      const name = matchAt(JS_IDENTIFIER, code, i + 1)!;
      out.push(`#${name}`, 'attr');
      i += name.length + 1;
      previous = 'name';
      continue;
    }
    const name = matchAt(JS_IDENTIFIER, code, i);
    if (name !== undefined) {
      const cls = classify(name, code, i + name.length, previous, defining, typescript);
      defining =
        cls !== 'keyword'
          ? undefined
          : name === 'function'
            ? 'function'
            : name === 'class' || name === 'extends'
              ? 'class'
              : defining;
      out.push(name, cls);
      i += name.length;
      previous = cls === 'keyword' ? name : 'name';
      continue;
    }
    if (code.startsWith('...', i)) {
      out.push('...'); // spread or rest, not a property's dot
      i += 3;
      previous = '...';
      continue;
    }
    if ((c === '+' || c === '-') && code[i + 1] === c) {
      out.push(c + c);
      i += 2;
      previous = '++'; // `a++ / 2` divides: after an increment or decrement a `/` is no regex
      defining = undefined;
      continue;
    }
    out.push(c);
    if (c !== '*') defining = undefined; // `function* name`, but `function (a)` defines no name
    if (c === '(') conditions.push(CONDITION_KEYWORDS.has(previous));
    if (c === ')' && conditions.pop()) previous = CONDITION_END;
    // `a.b?.c`: the chained dot counts as a dot.
    else previous = c === '?' && code[i + 1] === '.' ? '' : c;
    i++;
  }
  return out.tokens;
}

function regexAllowed(previous: string): boolean {
  if (previous === '' || previous === CONDITION_END || BEFORE_EXPRESSION.has(previous)) return true;
  if (previous.length !== 1) return false; // a name, number, string or other keyword
  return !')]}'.includes(previous);
}

function classify(
  name: string,
  code: string,
  end: number,
  previous: string,
  defining: TokenClass | undefined,
  typescript: boolean,
): TokenClass | undefined {
  const next = skipBlanks(code, end);
  if (previous === '.') {
    if (code[next] === '(') return 'function';
    return CAPITALIZED.test(name) ? 'class' : 'attr';
  }
  if (defining) return defining;
  if (SELF.has(name)) return 'self';
  if (LITERALS.has(name)) return 'literal';
  const key = code[next] === ':' && code[next + 1] !== ':' && (previous === '{' || previous === ',');
  if (KEYWORDS.has(name) || (typescript && TS_KEYWORDS.has(name))) {
    if (key) return 'attr'; // `{ default: 1, type: "x" }`
    // `get`, `set`, `from`, `type`... are names too: a method `get(key) {`, a variable `type = "x"`.
    if (CONTEXTUAL.has(name)) {
      if (code[next] === '(') return 'function';
      if (
        code[next] === undefined ||
        ',;)]}.'.includes(code[next]) ||
        (code[next] === '=' && !'=>'.includes(code[next + 1] ?? ''))
      )
        return undefined;
    }
    return 'keyword';
  }
  if (typescript && TS_TYPES.has(name)) return 'builtin';
  if (key) return 'attr';
  if (BUILTINS.has(name)) return 'builtin';
  if (CAPITALIZED.test(name)) return 'class';
  if (code[next] === '(') return 'function';
  return undefined;
}

/** The end (exclusive) of a regular expression literal with its flags, or undefined if the line has none. */
function regexEnd(code: string, start: number): number | undefined {
  let i = start + 1;
  let inClass = false;
  if (code[i] === '/' || code[i] === '*') return undefined;
  while (i < code.length && code[i] !== '\n') {
    const c = code[i];
    if (c === '\\') i += 2;
    else if (c === '[' || c === ']') {
      inClass = c === '[';
      i++;
    } else if (c === '/' && !inClass) {
      i++;
      while (/[a-z]/.test(code[i] ?? '')) i++;
      return i;
    } else i++;
  }
  return undefined;
}
