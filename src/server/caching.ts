import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * HTTP caching policy: validators (ETag, Last-Modified), conditional requests
 * and Cache-Control. Content-hashed assets can be cached forever because a new
 * build gives them a new name; everything else must be revalidated.
 */

export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const REVALIDATE_CACHE_CONTROL = 'no-cache';

/** Strong ETag from the bytes themselves, so identical rebuilds keep their validators. */
export function contentEtag(body: Buffer | string): string {
  const digest = createHash('sha1').update(body).digest('base64url').slice(0, 22);
  return `"${digest}"`;
}

/** Strong ETag for files streamed without reading them whole. */
export function statEtag(size: number, mtimeMs: number): string {
  return `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
}

/**
 * Compressed bodies are different representations, so they get their own
 * strong ETag ("abc-br"); conditional requests accept any variant of the tag.
 */
export function encodedEtag(etag: string, encoding: string | undefined): string {
  return encoding === undefined ? etag : `${etag.slice(0, -1)}-${encoding}"`;
}

/** Immutable for files pybook named by their content (a new build gives them a new name), else revalidated. */
export function cacheControlFor(contentNamed: boolean): string {
  return contentNamed ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL;
}

export function httpDate(mtimeMs: number): string {
  return new Date(mtimeMs).toUTCString();
}

function stripWeakPrefix(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/** Every tag that denotes the same content as `etag`, whatever its encoding. */
function matchesAnyEncoding(candidate: string, etag: string): boolean {
  const opaque = stripWeakPrefix(candidate);
  if (opaque === etag) return true;
  const stem = etag.slice(0, -1);
  return opaque.startsWith(`${stem}-`) && /^-(?:br|gzip)"$/.test(opaque.slice(stem.length));
}

/**
 * RFC 9110 section 13.2.2: If-None-Match wins over If-Modified-Since; the date
 * is compared at one-second resolution because HTTP dates have no fractions.
 */
export function isNotModified(headers: IncomingHttpHeaders, etag: string, mtimeMs: number): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() === '*') return true;
    return ifNoneMatch.split(',').some((candidate) => matchesAnyEncoding(candidate.trim(), etag));
  }
  const ifModifiedSince = headers['if-modified-since'];
  if (ifModifiedSince !== undefined) {
    const since = Date.parse(ifModifiedSince);
    return !Number.isNaN(since) && Math.floor(mtimeMs / 1000) * 1000 <= since;
  }
  return false;
}
