import type { Heading, Nodes, Root } from 'mdast';
import type { LeafDirective } from 'mdast-util-directive';
import { toString } from 'mdast-util-to-string';
import type { VFile } from 'vfile';
import { SKIP, visit } from '../visit.js';
import { errorAt } from './located-error.js';

declare module 'mdast' {
  interface HeadingData {
    /** The words an author gave the section for search (`::keywords[…]`): never shown. */
    searchKeywords?: string[];
  }
}

/**
 * `::keywords[…]` on a line of its own in a section: what a reader may search for that the
 * section's text cannot say (`::keywords[\`!==\`, strict inequality]`). Each inline code span is one
 * keyword as written; other text is split at commas. The keywords go to the section's heading (the
 * `##` or `###` it belongs to) for the search index, and the line is removed from the page.
 * Runs before the admonitions plugin, which turns every other leaf directive back into its text.
 */
export function remarkSectionKeywords() {
  return (tree: Root, file: VFile) => {
    let section: Heading | undefined;
    for (let i = 0; i < tree.children.length; i++) {
      const node = tree.children[i];
      if (node.type === 'heading' && node.depth <= 3) section = node;
      if (!isKeywords(node)) continue;
      const keywords = keywordsOf(node, file);
      if (!section)
        throw errorAt(
          file,
          node,
          '"::keywords" belongs to a section: put it after a "##" or "###" heading (the page\'s own keywords go in the front matter)',
        );
      const data = (section.data ??= {});
      data.searchKeywords = [...(data.searchKeywords ?? []), ...keywords];
      tree.children.splice(i--, 1);
    }
    visit(tree, (node) => {
      if (isKeywords(node))
        throw errorAt(file, node, '"::keywords" must stand on its own line in a section, outside lists and components');
      return node.type === 'code' ? SKIP : undefined;
    });
  };
}

const isKeywords = (node: Nodes): node is LeafDirective => node.type === 'leafDirective' && node.name === 'keywords';

function keywordsOf(node: LeafDirective, file: VFile): string[] {
  if (node.attributes && Object.keys(node.attributes).length)
    throw errorAt(file, node, '"::keywords" takes no attributes: write ::keywords[`===`, strict equality]');
  const keywords: string[] = [];
  for (const child of node.children) {
    if (child.type === 'inlineCode') keywords.push(child.value.trim());
    else keywords.push(...toString(child).split(','));
  }
  const kept = keywords.map((keyword) => keyword.replace(/\s+/g, ' ').trim()).filter(Boolean);
  if (!kept.length)
    throw errorAt(file, node, '"::keywords" needs at least one keyword: ::keywords[`===`, strict equality]');
  return kept;
}
