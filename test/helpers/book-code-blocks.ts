import { CODE_LANGUAGES } from '../../src/markdown/highlight/index.js';
import { bookChapters } from './book-chapters.js';

export interface BookCodeBlock {
  /** `locale/file:line` of the fence, for failure messages. */
  where: string;
  /** The fence's label as written (`py`, `ts`…). */
  label: string;
  /** The lexer that highlights it (`python`, `typescript`…), or null when it is shown plain. */
  language: string | null;
  code: string;
}

/** Every fenced code block of both book languages, in chapter order. */
export function bookCodeBlocks(): BookCodeBlock[] {
  const blocks: BookCodeBlock[] = [];
  for (const { name, source } of bookChapters()) {
    for (const match of source.matchAll(/^```(\w+)[^\n]*\n([\s\S]*?)\n```$/gm)) {
      const [, label, code] = match;
      const line = source.slice(0, match.index).split('\n').length;
      blocks.push({ where: `${name}:${line}`, label, language: CODE_LANGUAGES[label] ?? null, code });
    }
  }
  return blocks;
}
