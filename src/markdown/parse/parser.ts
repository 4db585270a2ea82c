import type { Root } from 'mdast';
import type { Extension as MdastExtension } from 'mdast-util-from-markdown';
import { parse, preprocess } from 'micromark';
import type { Extension as MicromarkExtension } from 'micromark-util-types';
import type { Plugin, Processor } from 'unified';
import { compileEvents } from './compile-events.js';
import { captureHandlers, type CompileHandlers } from './handlers.js';
import { expandContent } from './expand-content.js';

/**
 * The book's markdown parser, in place of remark-parse: the same micromark tokenizer and the
 * same syntax extensions (registered on the processor by remark-mdx, remark-directive and the
 * others, exactly as for remark-parse), with a faster loop from events to tree (compile-events.ts).
 */
export const remarkParser: Plugin<[], string, Root> = function (this: Processor) {
  const data = this.data() as { micromarkExtensions?: MicromarkExtension[]; fromMarkdownExtensions?: MdastExtension[] };
  let handlers: CompileHandlers | undefined;
  this.parser = (text: string): Root => {
    // Plugins after this one add their extensions: read them when the first document is parsed.
    const micromarkExtensions = data.micromarkExtensions ?? [];
    handlers ??= captureHandlers(micromarkExtensions, data.fromMarkdownExtensions ?? []);
    const chunks = preprocess()(text, undefined, true);
    const events = expandContent(parse({ extensions: micromarkExtensions }).document().write(chunks));
    return compileEvents(events, handlers);
  };
};
