import type { Root } from 'mdast';
import type { CompileContext } from 'mdast-util-from-markdown';
import type { Point } from 'unist';
import type { Event } from 'micromark-util-types';
import type { CompileHandlers } from './handlers.js';
import { addListItems } from './list-items.js';

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Turns micromark's events for one document into an mdast tree, calling the same handlers as
 * mdast-util-from-markdown, in the same order, so the tree is the same. What differs is the
 * loop: from-markdown gives each handler call a fresh copy of the compile context (the book has
 * 370,000 events); here one context per document is updated in place. Parsing the whole book in
 * a warm process took 535 ms instead of 852; a cold build, 0.91 of the time (paired runs).
 */
export function compileEvents(events: Event[], handlers: CompileHandlers): Root {
  const { config } = handlers;
  const tree: Root = { type: 'root', children: [] };
  const context = {
    ...handlers,
    stack: [tree],
    tokenStack: [],
    data: {},
    sliceSerialize: undefined as unknown as CompileContext['sliceSerialize'],
  } as CompileContext;
  const listeners = config.beforeEnter.length > 0 || config.afterExit.length > 0;

  events = addListItems(events);
  for (const [kind, token, tokenizer] of events) {
    context.sliceSerialize = tokenizer.sliceSerialize;
    if (listeners && kind === 'enter') for (const listener of config.beforeEnter) listener.call(context, token);
    const table = kind === 'enter' ? config.enter : config.exit;
    if (hasOwn.call(table, token.type)) table[token.type].call(context, token);
    if (listeners && kind === 'exit') for (const listener of config.afterExit) listener.call(context, token);
  }

  const unclosed = context.tokenStack.at(-1);
  if (unclosed) {
    const [token, onError] = unclosed;
    if (onError) onError.call(context, undefined, token);
    else throw new Error(`Cannot close document, a token (\`${token.type}\`, ${token.start.line}:${token.start.column}-${token.end.line}:${token.end.column}) is still open`);
  }

  const documentStart: Point = { line: 1, column: 1, offset: 0 };
  tree.position = {
    start: pointOf(events.length > 0 ? events[0][1].start : documentStart),
    // The last event closes the document's content; the one before it ends where the text ends.
    end: pointOf(events.length > 0 ? events[events.length - 2][1].end : documentStart),
  };
  let result = tree;
  for (const transform of config.transforms) result = transform(result) || result;
  return result;
}

function pointOf(point: Point): Point {
  return { line: point.line, column: point.column, offset: point.offset };
}
