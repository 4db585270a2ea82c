import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { escapeHeadingIds } from '../../src/markdown/plugins/heading-ids.js';

/** Every chapter file of the real book, named `locale/file` for failure messages. */
export function bookChapters(): Array<{ name: string; source: string }> {
  const bookDir = path.join(import.meta.dirname, '..', '..', 'book');
  return ['en', 'zh-cn'].flatMap((locale) =>
    readdirSync(path.join(bookDir, locale))
      .filter((file) => file.endsWith('.mdx'))
      .map((file) => ({ name: `${locale}/${file}`, source: readFileSync(path.join(bookDir, locale, file), 'utf8') })),
  );
}

interface Parser {
  parse(text: string): unknown;
}

/**
 * Parses every chapter as the compiler does (heading ids `{#id}` escaped, which MDX would read as
 * expressions) with two parsers, expects the same tree from both, and returns how many nodes of
 * `type` the trees hold (so a test can show the construct it compares was really there).
 */
export function expectSameTreeForEveryChapter(ours: Parser, theirs: Parser, type: string): number {
  let count = 0;
  for (const chapter of bookChapters()) {
    const source = escapeHeadingIds(chapter.source);
    const tree = ours.parse(source);
    expect(tree, chapter.name).toEqual(theirs.parse(source));
    count += JSON.stringify(tree).split(`"type":"${type}"`).length - 1;
  }
  return count;
}
