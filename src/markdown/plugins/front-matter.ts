import type { Root } from 'mdast';
import type { VFile } from 'vfile';
import { isMap, isScalar, parse as parseYaml, parseDocument, YAMLParseError } from 'yaml';
import { BookError } from '../../shared/errors.js';
import type { FrontMatter } from '../types.js';

const KNOWN_FIELDS = new Set(['title', 'description', 'keywords', 'sidebar_label', 'unlisted']);

/** Line and column of a top-level key in the front matter (whose `---` is on line `yamlLine`). */
function keyPosition(yaml: string, key: string, yamlLine: number): { line: number; column?: number } {
  const document = parseDocument(yaml);
  const contents = document.contents;
  if (isMap(contents)) {
    for (const pair of contents.items) {
      if (isScalar(pair.key) && String(pair.key.value) === key && pair.key.range) {
        const before = yaml.slice(0, pair.key.range[0]).split('\n');
        return { line: yamlLine + before.length, column: before[before.length - 1].length + 1 };
      }
    }
  }
  return { line: yamlLine };
}

/** Reads the YAML front matter into file.data.frontMatter and removes it from the tree. */
export function remarkFrontMatterData() {
  return (tree: Root, file: VFile) => {
    const first = tree.children[0];
    const fileName = file.path;
    if (!first || first.type !== 'yaml') {
      throw new BookError('missing front matter: a chapter starts with ---, a "title:" line and ---', { file: fileName, line: 1, column: 1 });
    }
    const yamlLine = first.position?.start.line ?? 1;
    let data: unknown;
    try {
      data = parseYaml(first.value);
    } catch (error) {
      const pos = error instanceof YAMLParseError ? error.linePos?.[0] : undefined;
      throw new BookError(`invalid front matter: ${(error as Error).message.split('\n')[0]}`, {
        file: fileName,
        line: pos ? yamlLine + pos.line : yamlLine,
        column: pos?.col,
      });
    }
    const fm = (data ?? {}) as Record<string, unknown>;
    const at = { file: fileName, line: yamlLine };
    for (const key of Object.keys(fm)) {
      if (!KNOWN_FIELDS.has(key)) {
        throw new BookError(`unknown front matter field "${key}" (allowed: ${[...KNOWN_FIELDS].join(', ')})`, { file: fileName, ...keyPosition(first.value, key, yamlLine) });
      }
    }
    if (typeof fm.title !== 'string' || !fm.title.trim()) throw new BookError('front matter needs a "title" string', at);
    if (fm.description !== undefined && typeof fm.description !== 'string') throw new BookError('front matter "description" must be a string', at);
    if (fm.sidebar_label !== undefined && typeof fm.sidebar_label !== 'string') throw new BookError('front matter "sidebar_label" must be a string', at);
    if (fm.unlisted !== undefined && typeof fm.unlisted !== 'boolean') throw new BookError('front matter "unlisted" must be true or false', at);
    if (fm.keywords !== undefined && !(Array.isArray(fm.keywords) && fm.keywords.every((k) => typeof k === 'string'))) {
      throw new BookError('front matter "keywords" must be a list of strings', at);
    }
    file.data.frontMatter = fm as unknown as FrontMatter;
    tree.children.shift();
  };
}
