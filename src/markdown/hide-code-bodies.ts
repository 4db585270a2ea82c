import type { Code, Root } from 'mdast';

/** A fenced code block found by the pre-scan: its fence lines (1-based) and its body as written. */
interface Fence { open: number; close: number; body: string }

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
 * Parses markdown with the bodies of fenced code blocks emptied (their lines kept, so every
 * line and column stays where it was) and puts the bodies back into the code nodes afterwards.
 * Code is about 40% of the book's text, and the parser would otherwise read it character by
 * character only to hand it back verbatim.
 *
 * The result is checked: every emptied block must come back as one code node spanning exactly
 * its fence lines. If the parser saw anything else (a fence inside a container that ended it
 * early, say), the source is parsed again as written, so the tree is always the one that
 * parsing the source itself gives.
 */
export function parseWithCodeBodiesHidden(source: string, parse: (text: string) => Root): Root {
  // Offsets into the emptied text would not match the source's; positions with offsets are
  // only used on lines outside code, but CR line endings change line splitting: keep it simple.
  if (source.includes('\r')) return parse(source);
  const lines = source.split('\n');
  const fences = findFences(lines);
  if (!fences.length) return parse(source);
  const hidden = [...lines];
  for (const fence of fences) for (let line = fence.open; line < fence.close - 1; line++) hidden[line] = '';
  const tree = parse(hidden.join('\n'));
  const byOpeningLine = new Map(fences.map((f) => [f.open, f]));
  const codes: Code[] = [];
  collectCode(tree, codes);
  let restored = 0;
  for (const code of codes) {
    const fence = code.position && byOpeningLine.get(code.position.start.line);
    if (!fence) continue;
    const emptyValue = '\n'.repeat(Math.max(0, fence.close - fence.open - 2));
    if (code.position!.end.line !== fence.close || code.value !== emptyValue) return parse(source);
    code.value = fence.body;
    restored++;
  }
  return restored === fences.length ? tree : parse(source);
}

function collectCode(node: { type: string; children?: unknown[] }, out: Code[]) {
  if (node.type === 'code') out.push(node as Code);
  else if (node.children) for (const child of node.children) collectCode(child as { type: string; children?: unknown[] }, out);
}
