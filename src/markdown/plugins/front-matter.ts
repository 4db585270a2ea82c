import type { Root } from 'mdast';
import type { VFile } from 'vfile';
// js-yaml rather than yaml: less than half the time to load and parse a book's front matter
// (about 35 ms against 90 for this book, the same values; both read YAML 1.2's core schema).
import { load as parseYaml, YAMLException } from 'js-yaml';
import { BookError } from '../../core/errors.js';
import type { FrontMatter } from '../../shared/model/chapter.js';

const KNOWN_FIELDS = new Set(['title', 'description', 'keywords', 'sidebar_label', 'unlisted']);

/**
 * Line and column of a top-level key in the front matter (whose `---` is on line `yamlLine`):
 * the line that starts with it, plain or quoted; else the front matter's first line.
 */
function keyPosition(yaml: string, key: string, yamlLine: number): { line: number; column?: number } {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const startsWithKey = new RegExp(`^(?:${escaped}|"${escaped}"|'${escaped}')\\s*:`);
  const index = yaml.split('\n').findIndex((line) => startsWithKey.test(line));
  return index === -1 ? { line: yamlLine } : { line: yamlLine + index + 1, column: 1 };
}

/** Reads the YAML front matter into file.data.frontMatter and removes it from the tree. */
export function remarkFrontMatterData() {
  return (tree: Root, file: VFile) => {
    const first = tree.children[0];
    const fileName = file.path;
    if (!first || first.type !== 'yaml') {
      throw new BookError('missing front matter: a chapter starts with ---, a "title:" line and ---', {
        file: fileName,
        line: 1,
        column: 1,
      });
    }
    const yamlLine = first.position?.start.line ?? 1;
    let data: unknown;
    try {
      data = parseYaml(first.value);
    } catch (error) {
      // js-yaml counts lines and columns from 0.
      const mark = error instanceof YAMLException ? error.mark : undefined;
      const reason = error instanceof YAMLException ? error.reason : (error as Error).message.split('\n')[0];
      throw new BookError(`invalid front matter: ${reason}`, {
        file: fileName,
        line: mark ? yamlLine + mark.line + 1 : yamlLine,
        column: mark ? mark.column + 1 : undefined,
      });
    }
    const fm = (data ?? {}) as Record<string, unknown>;
    const at = { file: fileName, line: yamlLine };
    for (const key of Object.keys(fm)) {
      if (!KNOWN_FIELDS.has(key)) {
        throw new BookError(`unknown front matter field "${key}" (allowed: ${[...KNOWN_FIELDS].join(', ')})`, {
          file: fileName,
          ...keyPosition(first.value, key, yamlLine),
        });
      }
    }
    if (typeof fm.title !== 'string' || !fm.title.trim())
      throw new BookError('front matter needs a "title" string', at);
    if (fm.description !== undefined && typeof fm.description !== 'string')
      throw new BookError('front matter "description" must be a string', at);
    if (fm.sidebar_label !== undefined && typeof fm.sidebar_label !== 'string')
      throw new BookError('front matter "sidebar_label" must be a string', at);
    if (fm.unlisted !== undefined && typeof fm.unlisted !== 'boolean')
      throw new BookError('front matter "unlisted" must be true or false', at);
    if (fm.keywords !== undefined && !(Array.isArray(fm.keywords) && fm.keywords.every((k) => typeof k === 'string'))) {
      throw new BookError('front matter "keywords" must be a list of strings', at);
    }
    file.data.frontMatter = fm as unknown as FrontMatter;
    tree.children.shift();
  };
}
