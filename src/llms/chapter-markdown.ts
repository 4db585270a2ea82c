import type { Root, RootContent } from 'mdast';
import { stringsFor } from '../shared/i18n/index.js';
import type { FrontMatter } from '../shared/model/chapter.js';
import { markdownUrlOf, type MarkdownSite } from './link-targets.js';
import { plainTree } from './plain-tree.js';
import { stringifyMarkdown } from './stringify.js';

export type { MarkdownSite } from './link-targets.js';

/**
 * A chapter as one clean Markdown file: its title as `# Title`, its description as a quote, then
 * its content as plain Markdown (see plain-tree.ts). `tree` is the chapter's mdast once the
 * pipeline's plugins have run (src/markdown/compile.ts): links already checked and resolved,
 * outputs attached to their code, traps taken out. The tree is not changed.
 */
export function chapterMarkdown(tree: Root, frontMatter: FrontMatter, slug: string, site: MarkdownSite): string {
  const strings = stringsFor(site.locale.code);
  const content = plainTree(tree, { strings, url: (node) => markdownUrlOf(node, slug, site) });
  const head: RootContent[] = [{ type: 'heading', depth: 1, children: [{ type: 'text', value: frontMatter.title }] }];
  if (frontMatter.description)
    head.push({
      type: 'blockquote',
      children: [{ type: 'paragraph', children: [{ type: 'text', value: frontMatter.description }] }],
    });
  return stringifyMarkdown({ type: 'root', children: [...head, ...content.children] });
}
