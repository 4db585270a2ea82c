/**
 * A site path: a file's place inside a folder pybook writes ('index.html', 'assets/app.js'), as the
 * manifest and the journal name it. Such a name is data read from a file anyone may have edited,
 * never a licence: only a relative path of plain segments can name a file inside the folder, so
 * anything else makes the whole file that holds it corrupt.
 */

/** Why `name` is not a site path, or undefined when it is one. */
export function sitePathProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'a name that is not a string';
  if (name === '') return 'an empty name';
  if (name.length > 4096) return 'a name longer than 4096 characters';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) return `${JSON.stringify(name)}, which holds a control character`;
  if (name.includes('\\')) return `${JSON.stringify(name)}, which holds a backslash`;
  if (name.startsWith('/')) return `${JSON.stringify(name)}, an absolute path`;
  for (const segment of name.split('/')) {
    if (segment === '') return `${JSON.stringify(name)}, which has an empty segment`;
    if (segment === '.' || segment === '..') return `${JSON.stringify(name)}, which has a "${segment}" segment`;
  }
  return undefined;
}

export const isSitePath = (name: unknown): name is string => sitePathProblem(name) === undefined;
