import { lookup, mimes } from 'mrmime';

// Types the site serves that mrmime (sirv's own table) lacks: the favicon and Python files.
mimes['ico'] ??= 'image/x-icon';
mimes['py'] ??= 'text/x-python';

/** Text formats whose bytes pybook writes as UTF-8: the charset is said, not left to the browser's guess. */
const TEXT_TYPE = /^(?:text\/|image\/svg\+xml$|application\/(?:[\w.+-]+\+)?(?:json|xml)$)/;

/**
 * The Content-Type of a site file: sirv's type (mrmime) with `charset=utf-8` on text, and opaque
 * bytes (which nosniff stops browsers guessing at) for an extension nobody knows.
 */
export function contentTypeOf(filePath: string): string {
  const type = lookup(filePath);
  if (type === undefined) return 'application/octet-stream';
  return TEXT_TYPE.test(type) ? `${type}; charset=utf-8` : type;
}
