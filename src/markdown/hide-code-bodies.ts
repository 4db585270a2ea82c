import type { Code, Root } from 'mdast';
import type { Point, Position } from 'unist';

/** A fenced code block found by the pre-scan: its fence lines (1-based) and its body as written. */
interface Fence {
  open: number;
  close: number;
  body: string;
}

const OPENING = /^(`{3,}|~{3,})(.*)$/;

/**
 * Finds fenced code blocks whose fences start at column 1 (all of the book's), the only ones whose
 * value is exactly the lines between the fences: an indented fence or one in a list or quote has
 * prefixes that the parser strips. Whatever this misses is simply parsed as usual.
 */
function findFences(lines: string[]): Fence[] {
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = OPENING.exec(lines[i]);
    if (!match) continue;
    const [, marker, info] = match;
    if (marker[0] === '`' && info.includes('`')) continue; // not a fence (CommonMark 4.5)
    const closing = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
    let end = i + 1;
    while (end < lines.length && !closing.test(lines[end])) end++;
    if (end === lines.length) break; // unclosed: runs to the end, leave it to the parser
    fences.push({ open: i + 1, close: end + 1, body: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return fences;
}

/**
 * Parses markdown with the bodies of fenced code blocks taken out (each fence's closing line
 * follows its opening line) and puts the bodies back into the code nodes afterwards. Code is
 * about 40% of the book's text, and the parser would otherwise read it line by line, trying
 * every container and the closing fence on each, only to hand it back verbatim.
 *
 * Lines and columns in the tree are the source's: every point after a fence is moved down by the
 * body lines taken out above it. Offsets index into the text that was parsed (which the caller
 * keeps, e.g. as the VFile's value).
 *
 * The result is checked: every block without its body must come back as one code node spanning exactly
 * its fence lines. If the parser saw anything else (a fence inside a container that ended it
 * early, say), or the text without the bodies does not parse, the source is parsed again as
 * written, so the tree, or the error and its line, is always the one that parsing the source gives.
 */
export function parseWithCodeBodiesHidden(source: string, parse: (text: string) => Root): Root {
  // A CR is a line ending of its own to the parser: the line numbers here would not match.
  if (source.includes('\r')) return parse(source);
  const lines = source.split('\n');
  const fences = findFences(lines);
  if (!fences.length) return parse(source);
  // Every line but the bodies': up to each opening fence, then on from its closing fence.
  const kept: string[] = [];
  let next = 0; // 0-based, as `lines` is; fence lines are 1-based
  for (const fence of fences) {
    for (; next < fence.open; next++) kept.push(lines[next]);
    next = fence.close - 1;
  }
  for (; next < lines.length; next++) kept.push(lines[next]);
  let tree: Root;
  try {
    tree = parse(kept.join('\n'));
  } catch {
    return parse(source);
  }
  new LineMap(fences, kept.length).moveToSource(tree as Positioned);
  const byOpeningLine = new Map(fences.map((f) => [f.open, f]));
  const codes: Code[] = [];
  collectCode(tree, codes);
  let restored = 0;
  for (const code of codes) {
    const fence = code.position && byOpeningLine.get(code.position.start.line);
    if (!fence) continue;
    if (code.position!.end.line !== fence.close || code.value !== '') return parse(source);
    code.value = fence.body;
    restored++;
  }
  return restored === fences.length ? tree : parse(source);
}

interface Positioned {
  position?: Position;
  children?: Positioned[];
  attributes?: Positioned[] | Record<string, unknown>;
}

/** From a line of the text without code bodies to the same line of the source. */
class LineMap {
  /**
   * How many body lines were taken out above each line of the parsed text (index: its 1-based
   * line): a table, since every node's start and end are looked up.
   */
  private readonly shiftAt: Uint32Array;

  constructor(fences: Fence[], parsedLines: number) {
    // Lines past the end (an end point after a final newline) shift as the last line does.
    this.shiftAt = new Uint32Array(parsedLines + 2);
    let removed = 0;
    let line = 1;
    for (const fence of fences) {
      // The closing fence sits right under the opening one in the parsed text.
      const closeInParsed = fence.open - removed + 1;
      this.shiftAt.fill(removed, line, closeInParsed);
      line = closeInParsed;
      removed += fence.close - fence.open - 1;
    }
    this.shiftAt.fill(removed, line);
  }

  sourceLine(line: number): number {
    return line + this.shiftAt[Math.min(line, this.shiftAt.length - 1)];
  }

  /**
   * Gives every position in the tree source lines: nodes' and JSX attributes'. Positions are
   * replaced, never edited, as nodes may share points. The estree programs of MDX expressions
   * (data.estree) keep the parsed text's lines: nothing in pybook reads them.
   */
  moveToSource(node: Positioned): void {
    if (node.position) node.position = { start: this.point(node.position.start), end: this.point(node.position.end) };
    // A directive's attributes are a plain record of strings, a JSX element's a list of nodes.
    if (Array.isArray(node.attributes)) for (const attribute of node.attributes) this.moveToSource(attribute);
    if (node.children) for (const child of node.children) this.moveToSource(child);
  }

  private point(point: Point): Point {
    const line = this.sourceLine(point.line);
    return line === point.line ? point : { ...point, line };
  }
}

function collectCode(node: { type: string; children?: unknown[] }, out: Code[]) {
  if (node.type === 'code') out.push(node as Code);
  else if (node.children)
    for (const child of node.children) collectCode(child as { type: string; children?: unknown[] }, out);
}
