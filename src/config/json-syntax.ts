/** Where the scan below stopped and why: thrown from deep inside it, caught at its top. */
class JsonSyntaxError extends Error {
  readonly offset: number;
  constructor(offset: number, message: string) {
    super(message);
    this.offset = offset;
  }
}

/**
 * Finds where JSON text first goes wrong. Node 20's JSON.parse messages often carry no position
 * ("Unexpected token 'x', ... is not valid JSON"), so the config loader scans the text itself to
 * name the line and column. Returns undefined for valid JSON.
 */
export function jsonSyntaxError(text: string): { offset: number; message: string } | undefined {
  let i = 0;
  const fail = (message: string): never => {
    throw new JsonSyntaxError(i, message);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  // A file cut short (a save caught half way, a bad merge) is the common case: say that in words.
  const unexpected = (expected: string, after = ''): never =>
    fail(
      i >= text.length
        ? text.trim() === ''
          ? 'the file is empty: expected a JSON object'
          : `the file ends too early (is it cut short?): expected ${expected}`
        : `unexpected "${text[i]}"${after}: expected ${expected}`,
    );
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else unexpected('a value');
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail('a line break or control character inside a string (write \\n)');
      if (text[i] === '\\') {
        const next = text[i + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i++;
            fail('\\u must be followed by four hex digits');
          }
          i += 6;
          continue;
        }
        if (next === undefined || !'"\\/bfnrt'.includes(next)) {
          i++;
          fail(`invalid escape \\${next ?? ''} in a string`);
        }
        i += 2;
        continue;
      }
      i++;
    }
    if (i >= text.length) fail('the file ends inside a string (is it cut short?): a closing " is missing');
    i++;
  };
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) unexpected('a value');
    i += match![0].length;
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    if (c === "'") fail('strings in JSON use double quotes');
    unexpected('a value');
  };
  const object = () => {
    i++;
    space();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      space();
      if (text[i] !== '"') {
        if (text[i] === '}') fail('a comma before "}" (JSON allows no trailing comma)');
        unexpected('a property name in double quotes');
      }
      string();
      space();
      if (text[i] !== ':') unexpected('":" after the property name');
      i++;
      value();
      space();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return;
      }
      unexpected('"," or "}" after a property value');
    }
  };
  const array = () => {
    i++;
    space();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      space();
      if (text[i] === ']') fail('a comma before "]" (JSON allows no trailing comma)');
      value();
      space();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return;
      }
      unexpected('"," or "]" after an array item');
    }
  };
  try {
    value();
    space();
    if (i < text.length) fail(`unexpected "${text[i]}" after the end of the JSON value`);
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { offset: error.offset, message: error.message };
    throw error;
  }
}

/** How deep a book.config.json may nest: the sidebar's categories are the deepest part, a few levels. */
export const MAX_CONFIG_NESTING = 32;

/**
 * The offset of the first `[` or `{` nested deeper than `limit` in JSON text (strings skipped), or
 * undefined. Checked before parsing: a config nested 200,000 levels deep would overflow the stack
 * of the parser or of the validator, with no position to report.
 */
export function tooDeeplyNested(text: string, limit = MAX_CONFIG_NESTING): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') {
      if (++depth > limit) return i;
    } else if (char === ']' || char === '}') depth--;
  }
  return undefined;
}
