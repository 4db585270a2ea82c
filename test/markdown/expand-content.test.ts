import { parse, postprocess, preprocess } from 'micromark';
import type { Event } from 'micromark-util-types';
import remarkDirective from 'remark-directive';
import remarkFrontmatter from 'remark-frontmatter';
import remarkMdx from 'remark-mdx';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { expandContent } from '../../src/markdown/parse/expand-content.js';
import { remarkParser } from '../../src/markdown/parse/parser.js';
import { escapeHeadingIds } from '../../src/markdown/plugins/heading-ids.js';
import { remarkGfmTables } from '../../src/markdown/plugins/gfm-tables.js';
import { bookChapters } from '../helpers/book-chapters.js';
import { markdownCases } from '../helpers/markdown-cases.js';

// The syntax extensions of the compiler's parser, as its plugins register them.
const processor = unified().use(remarkParser).use(remarkFrontmatter, ['yaml']).use(remarkGfmTables).use(remarkMdx).use(remarkDirective).freeze();
const extensions = (processor.data() as { micromarkExtensions: never[] }).micromarkExtensions;

/** The tokenizer's events for a text, before content is expanded. */
const tokenize = (text: string): Event[] => parse({ extensions }).document().write(preprocess()(text, undefined, true));

/** Every event as a line: enter or exit, token type, where it starts and ends, and whether it closes a container. */
const described = (events: Event[]) => events.map(([kind, token]) =>
  `${kind} ${token.type} ${token.start.line}:${token.start.column}@${token.start.offset}-${token.end.line}:${token.end.column}@${token.end.offset}${token._container ? ' container' : ''}`);

describe('expanding content (our postprocess)', () => {
  it.each(markdownCases)('gives the events micromark gives: %j', (text) => {
    expect(described(expandContent(tokenize(text)))).toEqual(described(postprocess(tokenize(text))));
  });

  it('gives the events micromark gives for every chapter of the book', () => {
    let events = 0;
    for (const chapter of bookChapters()) {
      const text = escapeHeadingIds(chapter.source);
      const ours = described(expandContent(tokenize(text)));
      expect(ours, chapter.name).toEqual(described(postprocess(tokenize(text))));
      events += ours.length;
    }
    expect(events).toBeGreaterThan(300_000);
  });

  it('expands content nested several levels deep (a link in a table in a list in a directive)', () => {
    const text = ':::note\n- item\n\n  | a |\n  | - |\n  | [**b**](./c.mdx "t") |\n:::';
    const types = expandContent(tokenize(text)).map(([kind, token]) => kind === 'enter' ? token.type : '');
    for (const type of ['directiveContainer', 'listItemPrefix', 'table', 'tableData', 'link', 'strong', 'resourceDestinationString', 'resourceTitleString']) expect(types).toContain(type);
    expect(types.filter((type) => type.startsWith('chunk'))).toEqual([]);
  });
});
