import type { Event, Token, TokenType } from 'micromark-util-types';

/** A list item token, made here: micromark marks only where items begin (their prefix), not where they end. */
interface ListItemToken extends Token {
  _spread: boolean;
}

const isList = (type: TokenType) => type === 'listOrdered' || type === 'listUnordered';

/** Tokens that may sit between an item's last line ending and the next item without ending it. */
const LINE_PREFIXES = new Set<string>(['linePrefix', 'blockQuotePrefix', 'blockQuotePrefixWhitespace', 'blockQuoteMarker', 'listItemIndent']);
/** Tokens of an item's marker: a blank line right after them does not make the item spread. */
const MARKER_PARTS = new Set<string>(['linePrefix', 'listItemValue', 'listItemMarker', 'listItemPrefix', 'listItemPrefixWhitespace']);

/**
 * Adds `listItem` enter and exit events around each item of every list, and marks lists and
 * items as spread (loose) the way CommonMark defines it: an item is spread when a blank line
 * separates two of its children, a list when a blank line separates two of its items.
 *
 * Lists are completed innermost first, each while it is the last thing in the output, so the
 * events inserted into one list never shift the indexes of an unfinished outer one. The
 * input array is returned untouched when the document has no list (most events are not in one).
 */
export function addListItems(events: Event[]): Event[] {
  if (!events.some((event) => isList(event[1].type))) return events;
  const output: Event[] = [];
  const openLists: number[] = [];
  for (const event of events) {
    output.push(event);
    if (!isList(event[1].type)) continue;
    if (event[0] === 'enter') openLists.push(output.length - 1);
    else completeList(output, openLists.pop()!);
  }
  return output;
}

/** `events` ends with a whole list that starts at `start`: insert its items' events and set its spread. */
function completeList(events: Event[], start: number): void {
  const last = events.length - 1;
  // -1 while in the list itself, 0 directly inside it (in an item), more inside nested containers.
  let depth = -1;
  let listSpread = false;
  let item: ListItemToken | undefined;
  let firstBlankLine: number | undefined;
  let afterMarker = false;
  const insertions: Array<{ at: number; event: Event }> = [];

  for (let index = start; index <= last; index++) {
    const event = events[index];
    const type = event[1].type;
    if (isList(type) || type === 'blockQuote') {
      depth += event[0] === 'enter' ? 1 : -1;
      afterMarker = false;
    } else if (type === 'lineEndingBlank') {
      if (event[0] === 'enter') {
        if (item && !afterMarker && depth === 0 && firstBlankLine === undefined) firstBlankLine = index;
        afterMarker = false;
      }
    } else if (!MARKER_PARTS.has(type)) {
      afterMarker = false;
    }

    const itemStarts = depth === 0 && event[0] === 'enter' && type === 'listItemPrefix';
    const listEnds = depth === -1 && event[0] === 'exit' && isList(type);
    if (!itemStarts && !listEnds) continue;

    if (item) {
      // The previous item ends at its last line ending (not counting prefixes of the next
      // line); every earlier trailing line ending becomes a blank one that spreads the list.
      let lastLineEnding: number | undefined;
      for (let back = index - 1; back >= 0; back--) {
        const [kind, token] = events[back];
        if (token.type === 'lineEnding' || token.type === 'lineEndingBlank') {
          if (kind === 'exit') continue;
          if (lastLineEnding !== undefined) {
            events[lastLineEnding][1].type = 'lineEndingBlank';
            listSpread = true;
          }
          token.type = 'lineEnding';
          lastLineEnding = back;
        } else if (!LINE_PREFIXES.has(token.type)) {
          break;
        }
      }
      if (firstBlankLine !== undefined && (lastLineEnding === undefined || firstBlankLine < lastLineEnding)) item._spread = true;
      item.end = { ...(lastLineEnding !== undefined ? events[lastLineEnding][1].start : event[1].end) };
      insertions.push({ at: lastLineEnding ?? index, event: ['exit', item, event[2]] });
    }

    if (itemStarts) {
      item = { type: 'listItem', _spread: false, start: { ...event[1].start }, end: undefined as never };
      insertions.push({ at: index, event: ['enter', item, event[2]] });
      firstBlankLine = undefined;
      afterMarker = true;
    }
  }

  // The list is the tail of `events`: take it off and put it back with the item events merged in.
  const list = events.splice(start);
  let next = 0;
  for (let offset = 0; offset < list.length; offset++) {
    while (next < insertions.length && insertions[next].at === start + offset) events.push(insertions[next++].event);
    events.push(list[offset]);
  }
  (events[start][1] as ListItemToken)._spread = listSpread;
}
