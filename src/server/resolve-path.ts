/**
 * Turns the raw request target (req.url, exactly as sent on the wire) into
 * decoded path segments, rejecting everything that could be used to climb out
 * of the site folder or to confuse the file-system lookup. Nothing here touches
 * the disk; containment is checked again against the real path later.
 */

/** Longer request targets are refused outright (browsers and CDNs cap near this too). */
export const MAX_URL_LENGTH = 2048;

export interface ParsedRequestPath {
  ok: true;
  /** Decoded, non-empty path segments, e.g. ['base', 'dictionary']. */
  segments: string[];
  /** Whether the path ended in '/', which matters for directory URLs. */
  trailingSlash: boolean;
  /** The raw query string including its '?', or '' when there is none. */
  query: string;
}

export interface RejectedRequestPath {
  ok: false;
  status: 400 | 404;
  reason: string;
}

export type RequestPathResult = ParsedRequestPath | RejectedRequestPath;

const PERCENT_ESCAPE = /%[0-9a-fA-F]{2}/;
const MALFORMED_PERCENT = /%(?![0-9a-fA-F]{2})/;
// C0 controls (includes NUL, CR, LF) and DEL; never legitimate in a file path.
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

function reject(status: 400 | 404, reason: string): RejectedRequestPath {
  return { ok: false, status, reason };
}

export function parseRequestPath(rawUrl: string): RequestPathResult {
  if (rawUrl.length > MAX_URL_LENGTH) return reject(400, `URL longer than ${MAX_URL_LENGTH} characters`);
  // Only origin-form targets ('/path?query'); absolute-form and '*' are not for a static site.
  if (!rawUrl.startsWith('/')) return reject(400, 'request target does not start with /');

  const queryStart = rawUrl.indexOf('?');
  const rawPath = queryStart === -1 ? rawUrl : rawUrl.slice(0, queryStart);
  const query = queryStart === -1 ? '' : rawUrl.slice(queryStart);

  if (rawPath.includes('\\')) return reject(400, 'backslash in path');
  if (MALFORMED_PERCENT.test(rawPath)) return reject(400, 'malformed percent-encoding');

  // Split before decoding so an encoded '%2f' can never create a new segment boundary.
  const rawSegments = rawPath.split('/').slice(1);
  const trailingSlash = rawSegments.length > 0 && rawSegments[rawSegments.length - 1] === '';
  if (trailingSlash) rawSegments.pop();

  const segments: string[] = [];
  for (const rawSegment of rawSegments) {
    if (rawSegment === '') return reject(404, 'empty path segment');
    let segment: string;
    try {
      segment = decodeURIComponent(rawSegment);
    } catch {
      return reject(400, 'malformed percent-encoding');
    }
    if (segment.includes('/') || segment.includes('\\')) return reject(400, 'encoded path separator');
    if (CONTROL_CHARACTER.test(segment)) return reject(400, 'control character in path');
    if (segment === '.' || segment === '..') return reject(400, 'dot segment in path');
    // A segment that still contains an escape after one decoding was double-encoded.
    if (PERCENT_ESCAPE.test(segment)) return reject(400, 'double percent-encoding');
    // Dotfiles (.git, .env, ...) are never part of the published site.
    if (segment.startsWith('.')) return reject(404, 'dotfile');
    segments.push(segment);
  }
  return { ok: true, segments, trailingSlash, query };
}

/** Re-encodes decoded segments into a safe absolute URL path for a Location header. */
export function formatUrlPath(segments: readonly string[], trailingSlash: boolean): string {
  const joined = segments.map((segment) => encodeURIComponent(segment)).join('/');
  if (joined === '') return '/';
  return `/${joined}${trailingSlash ? '/' : ''}`;
}

/**
 * Query strings are echoed back in redirects; escape anything outside visible
 * ASCII so the Location header can never carry raw bytes or whitespace.
 */
export function sanitizeQueryForHeader(query: string): string {
  return query.replace(/[^\x21-\x7e]/g, (character) => encodeURIComponent(character));
}
