import type { Stats } from 'node:fs';

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * The Range header to leave for sirv, or undefined to send the whole file (RFC 9110 lets a server
 * ignore Range). sirv reads `bytes=a-b` literally: it would answer a suffix range (`bytes=-500`)
 * from the start, `bytes=0-0` with the whole file, and `bytes=5-2` with a negative length; those
 * are rewritten or dropped here, with `stats` of the file sirv chose (the `.br` sibling, perhaps).
 * If-Range (a resumed download) keeps the range only while the file is the one the client has:
 * sirv's ETags are weak, which If-Range never accepts, so only its Last-Modified date can match.
 */
export function rangeForSirv(range: string | undefined, ifRange: string | undefined, stats: Stats): string | undefined {
  if (range === undefined) return undefined;
  if (ifRange !== undefined && !isSameDate(ifRange, stats.mtimeMs)) return undefined;
  const match = SINGLE_RANGE.exec(range.trim());
  if (match === null) return undefined; // several ranges, or not bytes
  const [, first = '', last = ''] = match;
  if (first === '') {
    // A suffix range: the last n bytes. None at all cannot be satisfied (sirv answers 416).
    if (last === '') return undefined;
    const length = Number(last);
    return length === 0 ? `bytes=${stats.size}-` : `bytes=${Math.max(0, stats.size - length)}-`;
  }
  const start = Number(first);
  // Numbers past 2^53 lose their digits: a start that large is past any file (sirv answers 416 for
  // this one), and an end that large means the file's last byte (RFC 9110, 14.1.2).
  if (!Number.isSafeInteger(start)) return `bytes=${stats.size}-`;
  if (last === '' || !Number.isSafeInteger(Number(last))) return `bytes=${start}-`;
  const end = Number(last);
  // sirv takes an end of 0 for "to the end"; an end before the start is no valid range.
  if (end < start || end === 0) return undefined;
  return `bytes=${start}-${end}`;
}

/** HTTP dates have whole seconds. */
function isSameDate(header: string, mtimeMs: number): boolean {
  if (header.startsWith('"') || header.startsWith('W/')) return false;
  return Date.parse(header) === Math.floor(mtimeMs / 1000) * 1000;
}
