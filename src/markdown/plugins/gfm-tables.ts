import type { Processor } from 'unified';
import type { Code, Construct, Effects, State, TokenizeContext } from 'micromark-util-types';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';

/**
 * The two GitHub-flavoured extensions the book uses: tables and ~~strikethrough~~. The whole of
 * remark-gfm also brings literal autolinks, whose tokenizer tripled the parse time of a chapter.
 *
 * Registered through unified's public extension lists, as remark-gfm does. Must come after
 * remark-parse: it wraps the parser to tell the table tokenizer where tables can be (see tableConstruct).
 */
export function remarkGfmTables(this: Processor) {
  const data = this.data() as { micromarkExtensions?: unknown[]; fromMarkdownExtensions?: unknown[] };
  const document: DocumentLines = {};
  (data.micromarkExtensions ??= []).push({ flow: { null: tableConstruct(document) } }, gfmStrikethrough());
  (data.fromMarkdownExtensions ??= []).push(gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown());
  const parse = this.parser;
  if (!parse) throw new Error('remarkGfmTables must be used after a parser plugin');
  this.parser = (text, file) => {
    // A carriage return is a line ending of its own to micromark: lines would not match, so no shortcut.
    document.delimiterRows = text.includes('\r') ? undefined : delimiterRowsOf(text);
    try {
      return parse(text, file);
    } finally {
      document.delimiterRows = undefined;
    }
  };
}

/** What the table tokenizer knows of the document being parsed: the lines that may be a table's delimiter row. */
interface DocumentLines {
  delimiterRows?: Set<number>;
}

/** A delimiter row (`| --- | :-: |`) after any blockquote markers and indentation: it has a pipe and a dash, and nothing else but colons and blanks. */
const DELIMITER_ROW = /^[\s>]*[|:\s-]*$/;

/** The 1-based numbers of the lines that could be a table's delimiter row. */
export function delimiterRowsOf(text: string): Set<number> {
  const rows = new Set<number>();
  let line = 1;
  for (let start = 0; start <= text.length; line++) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const row = text.slice(start, end);
    if (row.includes('|') && row.includes('-') && DELIMITER_ROW.test(row)) rows.add(line);
    start = end + 1;
  }
  return rows;
}

/**
 * micromark's GFM table construct is tried at the start of every line of flow: it reads the
 * whole line as a head row and only at the next line learns that no delimiter row follows, so
 * every paragraph line was read twice (a fifth of the parse). A table's head row is always the
 * line before its delimiter row, so this construct refuses at once on any other line, and hands
 * everything else (heads before a delimiter row, body rows after a table row) to micromark's.
 * The tree is the same: it only says no where micromark's would also have said no.
 */
function tableConstruct(document: DocumentLines): Construct {
  const table = (gfmTable().flow as Record<string, Construct>).null;
  return {
    ...table,
    tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
      const micromarks = table.tokenize.call(this, effects, ok, nok);
      return (code: Code) => {
        const rows = document.delimiterRows;
        if (rows && !rows.has(this.now().line + 1) && !afterTableRow(this)) return nok(code);
        return micromarks(code);
      };
    },
  };
}

/** Whether the flow before this line ended with a table's head or row (so this line may be a body row), as micromark's construct decides it. */
function afterTableRow(context: TokenizeContext): boolean {
  const events = context.events;
  let index = events.length - 1;
  while (index > -1 && (events[index][1].type === 'lineEnding' || events[index][1].type === 'linePrefix')) index--;
  const tail = index > -1 ? events[index][1].type : undefined;
  return tail === 'tableHead' || tail === 'tableRow';
}
