import { fromMarkdown, type CompileContext, type Extension as MdastExtension, type Handle } from 'mdast-util-from-markdown';
import type { Extension as MicromarkExtension } from 'micromark-util-types';

/** What compiling events into a tree needs from mdast-util-from-markdown: its handlers and helpers, with every extension merged in. */
export type CompileHandlers = Pick<CompileContext, 'config' | 'enter' | 'exit' | 'buffer' | 'resume'>;

/**
 * mdast-util-from-markdown builds its table of token handlers (its own, merged with every
 * extension's) inside each `fromMarkdown` call and does not export it. The handlers only ever
 * reach the tree through `this` (the compile context), so one table serves every document.
 * This runs `fromMarkdown` once on a one-word document with an extra listener that keeps the
 * context it is called with: the context carries the table (`config`) and the helpers the
 * handlers call through `this` (`enter`, `exit`, `buffer`, `resume`).
 */
export function captureHandlers(micromarkExtensions: MicromarkExtension[], mdastExtensions: MdastExtension[]): CompileHandlers {
  let context: CompileContext | undefined;
  const keepContext: Handle = function (this: CompileContext) {
    context ??= this;
  };
  fromMarkdown('x', { extensions: micromarkExtensions, mdastExtensions: [...mdastExtensions, { beforeEnter: keepContext }] });
  if (!context) throw new Error('mdast-util-from-markdown did not call its beforeEnter listeners: the parser needs updating');
  const { config, enter, exit, buffer, resume } = context;
  // The table is ours now: drop the listener that captured it.
  const withoutCapture = { ...config, beforeEnter: config.beforeEnter.filter((listener) => listener !== keepContext) };
  return { config: withoutCapture, enter, exit, buffer, resume };
}
