import { SpliceBuffer } from 'micromark-util-subtokenize';
import type { Chunk, Event, Token, TokenizeContext } from 'micromark-util-types';

/**
 * micromark's postprocess step, written for speed: the tokenizer leaves every run of content of
 * another kind (the flow inside a document, the text of a paragraph, a link's destination) as
 * linked chunk tokens, and this expands each of them into that content's own events, one level of
 * nesting per pass over the events, until nothing is left to expand.
 *
 * The events are the same as those of micromark's `postprocess` (the tests compare them on every
 * chapter and on the parser's edge cases). What differs is the bookkeeping, which was half of that
 * step's time on the book:
 * - the ranges a pass must skip (child events it just inserted) are kept in a Map instead of an
 *   object with numeric keys, which V8 holds as a slow dictionary;
 * - a pass that edits nothing does not copy the events into a splice buffer and back;
 * - the last pass, which only confirms that nothing is left, is not run when the events inserted
 *   by the pass before hold nothing that a pass acts on (no chunk to expand, no container exit,
 *   no flow chunk): every other event was already seen, and what a pass does to it is done once.
 */
export function expandContent(events: Event[]): Event[] {
  while (expandOneLevel(events)) {
    // Each pass expands one more level of nesting.
  }
  return events;
}

/** One pass over the events; says whether another is needed. */
function expandOneLevel(list: Event[]): boolean {
  const events = new EventList(list);
  // Where the child events inserted by this pass start -> their last index: a pass does not look into them.
  const skips = new Map<number, number>();
  let expanded = false;
  for (let index = 0; index < events.length; index++) {
    let skipTo = skips.get(index);
    while (skipTo !== undefined) {
      index = skipTo;
      skipTo = skips.get(index);
    }
    const event = events.get(index);
    const token = event[1];
    if (index > 0 && token.type === 'chunkFlow' && events.get(index - 1)[1].type === 'listItemPrefix') {
      markFirstContentOfListItem(token);
    }
    if (event[0] === 'enter') {
      if (token.contentType) {
        expandToken(events, index, skips);
        index = skips.get(index)!;
        expanded = true;
      }
    } else if (token._container) {
      moveContainerExitBeforeLineEndings(events, index);
    }
  }
  events.writeBack();
  return expanded && events.insertedNeedAPass;
}

/**
 * The events of a pass: read straight from the array until the first edit, then from a splice
 * buffer (cheap edits near a moving cursor) that is copied back at the end of the pass.
 */
class EventList {
  private buffer?: SpliceBuffer<Event>;
  /** Whether events inserted in this pass include any that a pass acts on. */
  insertedNeedAPass = false;

  constructor(private readonly array: Event[]) {}

  get length(): number {
    return this.buffer ? this.buffer.length : this.array.length;
  }

  get(index: number): Event {
    return this.buffer ? this.buffer.get(index) : this.array[index];
  }

  slice(start: number, end: number): Event[] {
    return this.buffer ? this.buffer.slice(start, end) : this.array.slice(start, end);
  }

  /** Replaces `count` events at `start` with `items`. */
  replace(start: number, count: number, items: Event[]): void {
    this.buffer ??= new SpliceBuffer(this.array);
    this.buffer.splice(start, count, items);
  }

  /** Inserts the child events of an expanded chunk in place of its enter and exit. */
  insertChildren(start: number, children: Event[]): void {
    this.replace(start, 2, children);
    if (!this.insertedNeedAPass) this.insertedNeedAPass = children.some(needsAPass);
  }

  writeBack(): void {
    if (!this.buffer) return;
    const edited = this.buffer.slice(0);
    this.array.length = edited.length;
    for (let i = 0; i < edited.length; i++) this.array[i] = edited[i];
  }
}

/** Whether a pass does anything with this event (see expandOneLevel). */
const needsAPass = ([kind, token]: Event): boolean =>
  (kind === 'enter' && token.contentType !== undefined) || token._container === true || token.type === 'chunkFlow';

/**
 * A flow chunk right after a list item's prefix: the text chunks of its first paragraph are
 * marked, so that the text tokenizer knows it reads a list item's first content (GFM task lists
 * need this; kept so that the events match micromark's for any extension).
 */
function markFirstContentOfListItem(chunk: Token): void {
  const inner = chunk._tokenizer!.events;
  let i = 0;
  if (i < inner.length && inner[i][1].type === 'lineEndingBlank') i += 2;
  if (i >= inner.length || inner[i][1].type !== 'content') return;
  while (++i < inner.length) {
    const type = inner[i][1].type;
    if (type === 'content') break;
    if (type === 'chunkText') {
      inner[i][1]._isInFirstContentOfListItem = true;
      i++;
    }
  }
}

/**
 * A container (list item, block quote) ends before the line endings and line prefixes that
 * precede its exit: the exit moves in front of them, its end moves to their start, and of several
 * line endings all but the first become blank ones.
 */
function moveContainerExitBeforeLineEndings(events: EventList, exitIndex: number): void {
  const exit = events.get(exitIndex);
  let firstLineEnding: number | undefined;
  for (let i = exitIndex - 1; i >= 0; i--) {
    const [kind, token] = events.get(i);
    if (token.type === 'lineEnding' || token.type === 'lineEndingBlank') {
      if (kind === 'enter') {
        if (firstLineEnding) events.get(firstLineEnding)[1].type = 'lineEndingBlank';
        token.type = 'lineEnding';
        firstLineEnding = i;
      }
    } else if (token.type !== 'linePrefix' && token.type !== 'listItemIndent') {
      break;
    }
  }
  // Index 0 never counts: the document's first event is not a line ending after a container.
  if (!firstLineEnding) return;
  exit[1].end = { ...events.get(firstLineEnding)[1].start };
  events.replace(firstLineEnding, exitIndex - firstLineEnding + 1, [exit, ...events.slice(firstLineEnding, exitIndex)]);
}

/**
 * Expands the linked chunks that start with the token entered at `enterIndex`: their text is
 * tokenized as one stream by a tokenizer of their content type, and that tokenizer's events,
 * split where one chunk's line ends, replace each chunk's enter and exit. Records the inserted
 * ranges in `skips`.
 */
function expandToken(events: EventList, enterIndex: number, skips: Map<number, number>): void {
  const [, first, context] = events.get(enterIndex);
  const tokenizer = first._tokenizer ?? childTokenizer(context, first);
  const childEvents = tokenizer.events;

  // Where each chunk's enter is; chunks that no tokenizer has read yet are written to this one.
  const chunkStarts: number[] = [];
  let position = enterIndex - 1;
  for (let chunk: Token | undefined = first; chunk; chunk = chunk.next) {
    while (events.get(++position)[1] !== chunk) {
      // The chunks follow each other, with other events (prefixes, line endings) between them.
    }
    chunkStarts.push(position);
    if (!chunk._tokenizer) {
      const stream: Chunk[] = context.sliceStream(chunk);
      if (!chunk.next) stream.push(null);
      if (chunk !== first) tokenizer.defineSkip(chunk.start);
      if (chunk._isInFirstContentOfListItem) tokenizer._gfmTasklistFirstContentOfListItem = true;
      tokenizer.write(stream);
      if (chunk._isInFirstContentOfListItem) tokenizer._gfmTasklistFirstContentOfListItem = undefined;
    }
  }

  // The child events break after every token that spans a line ending (an empty enter/exit pair
  // across lines): each break is where the next chunk's events begin.
  const breaks = [0];
  let current: Token | undefined = first;
  for (let i = 1; i < childEvents.length; i++) {
    const [kind, token] = childEvents[i];
    const [previousKind, previousToken] = childEvents[i - 1];
    if (kind === 'exit' && previousKind === 'enter' && token.type === previousToken.type && token.start.line !== token.end.line) {
      breaks.push(i + 1);
      current!._tokenizer = undefined;
      current!.previous = undefined;
      current = current!.next;
    }
  }
  // The tokenizer is done with: drop its events so they can be collected.
  tokenizer.events = [];
  if (current) {
    current._tokenizer = undefined;
    current.previous = undefined;
  } else {
    breaks.pop();
  }

  // Insert from the last chunk to the first, so the earlier chunks' positions stay valid.
  const inserted: Array<[number, number]> = [];
  for (let b = breaks.length - 1; b >= 0; b--) {
    const children = childEvents.slice(breaks[b], breaks[b + 1]);
    const start = chunkStarts.pop()!;
    inserted.push([start, start + children.length - 1]);
    events.insertChildren(start, children);
  }
  // In first-to-last order, each range moves by what the ranges before it added.
  let shift = 0;
  for (let r = inserted.length - 1; r >= 0; r--) {
    const [start, end] = inserted[r];
    skips.set(shift + start, shift + end);
    shift += end - start - 1;
  }
}

function childTokenizer(context: TokenizeContext, token: Token): TokenizeContext {
  const tokenizer = context.parser[token.contentType!](token.start);
  if (token._contentTypeTextTrailing) tokenizer._contentTypeTextTrailing = true;
  return tokenizer;
}
