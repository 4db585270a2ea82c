import { isSymbol, normalizeLatin, operatorsAt, type CjkSegmenter } from './tokenize.js';

/** Query tokens this long also match as prefixes (see the engine's expansion). */
const MIN_PREFIX_LENGTH = 3;

/** A piece of displayed text; `match` pieces are shown highlighted. Always rendered as text. */
export interface TextPart {
  text: string;
  match: boolean;
}
type Range = [start: number, end: number];

const WORD = /[\u3400-\u9fff\uf900-\ufaff]+|[a-z0-9]+(?:['’][a-z]+)?/gi;
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/** A match and the query token it stands for (windows are ranked by how many tokens they show). */
interface TokenMatch {
  start: number;
  end: number;
  token: string;
}

/**
 * Finds where query tokens occur in displayed text, by the rules the index uses: a Latin word
 * matches when its stem (or, for code, the word itself: `forEach`) is a query token or starts with
 * one of three or more characters (the query expands prefixes, so "dict" finds "dictionaries"),
 * and an operator where the index reads that operator. Chinese runs are cut into words by
 * `segment` (the engine's, jieba-consistent): a token matches a word it equals, and a token of two
 * or more characters also a longer word holding it (jieba's search mode indexes 虚拟 inside
 * 虚拟环境), so a lone 式 never lights up inside 表达式. Without a segmenter a Chinese token
 * matches wherever it occurs.
 */
export function findMatches(text: string, tokens: string[], segment?: CjkSegmenter): Range[] {
  return mergeRanges(findTokenMatches(text, tokens, segment).map((m): Range => [m.start, m.end]));
}

/**
 * Stems of displayed words, remembered: snippets are cut from whole sections (the search page
 * may cut hundreds per keystroke) and a book repeats its words. Bounded, in case it runs long.
 */
const stems = new Map<string, string | undefined>();
function stemOf(word: string): string | undefined {
  const lower = word.toLowerCase();
  if (stems.has(lower)) return stems.get(lower);
  if (stems.size >= 50_000) stems.clear();
  const stem = normalizeLatin(lower);
  stems.set(lower, stem);
  return stem;
}

function findTokenMatches(text: string, tokens: string[], segment?: CjkSegmenter): TokenMatch[] {
  const operators = tokens.filter(isSymbol);
  const latin = tokens.filter((t) => !CJK.test(t) && !isSymbol(t));
  const chinese = tokens.filter((t) => CJK.test(t));
  const matches: TokenMatch[] = [];
  // Operators match where the index would read the same operator (`==` never inside `===`).
  if (operators.length)
    for (const [token, start, end] of operatorsAt(text))
      if (operators.includes(token)) matches.push({ start, end, token });
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    const start = match.index ?? 0;
    if (CJK.test(word[0])) {
      if (chinese.length) matches.push(...chineseMatches(word, start, chinese, segment));
    } else if (latin.length) {
      const stem = stemOf(word);
      const token = stem && latin.find((t) => stem === t || (t.length >= MIN_PREFIX_LENGTH && stem.startsWith(t)));
      if (token) matches.push({ start, end: start + word.length, token });
    }
  }
  return matches.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** The matches of Chinese tokens in one run of Chinese text starting at `offset`. */
function chineseMatches(run: string, offset: number, tokens: string[], segment?: CjkSegmenter): TokenMatch[] {
  const matches: TokenMatch[] = [];
  /** Occurrences in `word` (at `at`) of the tokens that `may` match inside it. */
  const within = (word: string, at: number, may: (token: string) => boolean) => {
    for (const token of tokens) {
      if (!may(token)) continue;
      for (let i = word.indexOf(token); i >= 0; i = word.indexOf(token, i + token.length))
        matches.push({ start: at + i, end: at + i + token.length, token });
    }
  };
  if (!segment) {
    within(run, offset, () => true);
    return matches;
  }
  let at = offset;
  for (const word of segment(run)) {
    // A one-character token is a word only where the segmenter leaves that character alone.
    within(word, at, (token) => token.length >= 2 || token === word);
    at += word.length;
  }
  return matches;
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
export function highlightParts(text: string, tokens: string[], segment?: CjkSegmenter): TextPart[] {
  return partsOf(text, findMatches(text, tokens, segment), 0, text.length);
}

/**
 * At most `maxLength` characters (ellipses included) of the text around its best match (the
 * window showing the most distinct query tokens, the earliest of equals), or its opening when
 * nothing matches, with the matches marked.
 */
export function snippetParts(text: string, tokens: string[], maxLength: number, segment?: CjkSegmenter): TextPart[] {
  const clean = text.replace(/\s+/g, ' ').trim();
  const matches = findTokenMatches(clean, tokens, segment);
  const ranges = mergeRanges(matches.map((m): Range => [m.start, m.end]));
  if (clean.length <= maxLength) return partsOf(clean, ranges, 0, clean.length);
  const anchor = bestAnchor(matches, clean.length, maxLength);
  let start = anchor === undefined ? 0 : windowStart(anchor, clean.length, maxLength);
  if (start > 0 && insideWord(clean, start)) {
    // Start at the end of the cut word, when that is still before the match.
    let next = start;
    while (next < clean.length && insideWord(clean, next)) next++;
    if (anchor === undefined || next <= anchor) start = next;
  }
  while (start > 0 && start < clean.length && clean[start] === ' ') start++;
  const lead = start > 0 ? 1 : 0;
  let end = Math.min(clean.length, start + maxLength - lead);
  if (end < clean.length) end -= 1;
  if (end < clean.length) {
    // End between words (Chinese: between characters), unless that would drop half the window.
    let previous = end;
    while (previous > start && insideWord(clean, previous)) previous--;
    if (previous - start >= maxLength / 2) end = previous;
    if (/[\ud800-\udbff]/.test(clean[end - 1] ?? '')) end -= 1; // never half of a surrogate pair
    while (end > start && clean[end - 1] === ' ') end--;
  }
  const parts = partsOf(clean, ranges, start, end);
  if (lead) parts.unshift({ text: '…', match: false });
  if (end < clean.length) parts.push({ text: '…', match: false });
  return parts;
}

/** Latin letters and digits form words; a cut between two of them is a cut inside a word. */
const WORD_CHAR = /[A-Za-z0-9_'’]/;
const insideWord = (text: string, at: number) =>
  at > 0 && at < text.length && WORD_CHAR.test(text[at - 1]) && WORD_CHAR.test(text[at]);

/** Leave a little context before the match; never start past the point where the window ends the text. */
const windowStart = (matchStart: number, length: number, maxLength: number) =>
  Math.max(0, Math.min(matchStart - Math.floor(maxLength / 5), length - maxLength + 1));

/** Where the best window's leading match starts, trying the window that leads with each match. */
function bestAnchor(matches: TokenMatch[], length: number, maxLength: number): number | undefined {
  const everyToken = new Set(matches.map((m) => m.token)).size;
  let best: number | undefined;
  let bestCount = 0;
  for (let i = 0; i < matches.length && bestCount < everyToken; i++) {
    const start = windowStart(matches[i].start, length, maxLength);
    // Two characters go to the ellipses a cut window carries.
    const end = start + maxLength - 2;
    const shown = new Set<string>();
    let first = i;
    while (first > 0 && matches[first - 1].start >= start) first--;
    for (let j = first; j < matches.length && matches[j].start < end; j++)
      if (matches[j].end <= end) shown.add(matches[j].token);
    if (shown.size > bestCount) {
      best = matches[i].start;
      bestCount = shown.size;
    }
  }
  return best;
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
