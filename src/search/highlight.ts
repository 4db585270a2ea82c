import { normalizeLatin } from './tokenize.js';

/** Query tokens this long also match as prefixes (see the engine's expansion). */
const MIN_PREFIX_LENGTH = 3;

/** A piece of displayed text; `match` pieces are shown highlighted. Always rendered as text. */
export interface TextPart { text: string; match: boolean }
type Range = [start: number, end: number];

const WORD = /[\u3400-\u9fff\uf900-\ufaff]+|[a-z0-9]+(?:['’][a-z]+)?/gi;
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/**
 * Finds where query tokens occur in displayed text, by the rules the index uses: a Latin word
 * matches when its stem is a query token or starts with one of three or more characters (the
 * query expands prefixes, so "dict" finds "dictionaries"); a Chinese token matches wherever it occurs in a Chinese run.
 */
export function findMatches(text: string, tokens: string[]): Range[] {
  const latin = tokens.filter((t) => !CJK.test(t));
  const chinese = tokens.filter((t) => CJK.test(t));
  const ranges: Range[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    const start = match.index ?? 0;
    if (CJK.test(word[0])) {
      for (const token of chinese) {
        for (let at = word.indexOf(token); at >= 0; at = word.indexOf(token, at + token.length)) ranges.push([start + at, start + at + token.length]);
      }
    } else if (latin.length) {
      const stem = normalizeLatin(word.toLowerCase());
      if (stem && latin.some((t) => stem === t || (t.length >= MIN_PREFIX_LENGTH && stem.startsWith(t)))) ranges.push([start, start + word.length]);
    }
  }
  return mergeRanges(ranges);
}

function mergeRanges(ranges: Range[]): Range[] {
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Range[] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/** The whole text split into plain and matched parts. */
export function highlightParts(text: string, tokens: string[]): TextPart[] {
  return partsOf(text, findMatches(text, tokens), 0, text.length);
}

/**
 * At most `maxLength` characters (ellipses included) of the text around its first match, or
 * its opening when nothing matches, with the matches marked.
 */
export function snippetParts(text: string, tokens: string[], maxLength: number): TextPart[] {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= maxLength) return partsOf(clean, findMatches(clean, tokens), 0, clean.length);
  const ranges = findMatches(clean, tokens);
  // Leave a little context before the match; never start past the point where the window ends the text.
  let start = ranges.length ? Math.max(0, Math.min(ranges[0][0] - Math.floor(maxLength / 5), clean.length - maxLength + 1)) : 0;
  if (start > 0) {
    const space = clean.indexOf(' ', start);
    if (space >= 0 && space < start + 8 && (!ranges.length || space < ranges[0][0])) start = space + 1;
  }
  const lead = start > 0 ? 1 : 0;
  let end = Math.min(clean.length, start + maxLength - lead);
  if (end < clean.length) end -= 1;
  const parts = partsOf(clean, ranges, start, end);
  if (lead) parts.unshift({ text: '…', match: false });
  if (end < clean.length) parts.push({ text: '…', match: false });
  return parts;
}

function partsOf(text: string, ranges: Range[], from: number, to: number): TextPart[] {
  const parts: TextPart[] = [];
  let at = from;
  for (const [rangeStart, rangeEnd] of ranges) {
    const s = Math.max(rangeStart, from);
    const e = Math.min(rangeEnd, to);
    if (e <= s) continue;
    if (s > at) parts.push({ text: text.slice(at, s), match: false });
    parts.push({ text: text.slice(s, e), match: true });
    at = e;
  }
  if (at < to) parts.push({ text: text.slice(at, to), match: false });
  return parts;
}
