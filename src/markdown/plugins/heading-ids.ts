import type { Root } from 'mdast';
import { toString } from 'mdast-util-to-string';
import GithubSlugger from 'github-slugger';
import type { VFile } from 'vfile';
import { visit } from '../visit.js';
import { errorAt } from './located-error.js';
import type { Heading } from '../../shared/model/chapter.js';

const CUSTOM_ID = /\s*\{#([A-Za-z0-9_][\w-]*)\}\s*$/;

/**
 * `## Title {#custom-id}` is not valid MDX (braces are expressions), so before parsing we escape
 * the braces on heading lines outside code fences; the heading plugin then finds the literal
 * text again and turns it into the id. Line numbers stay the same.
 */
export function escapeHeadingIds(source: string): string {
  let fence: string | null = null;
  return source
    .split('\n')
    .map((line) => {
      const fenceMatch = /^\s*(`{3,}|~{3,})/.exec(line);
      if (fenceMatch) {
        if (fence === null) fence = fenceMatch[1];
        else if (fenceMatch[1].startsWith(fence) && line.trim() === fenceMatch[1]) fence = null;
        return line;
      }
      if (fence === null && /^#{1,6}\s/.test(line)) return line.replace(/\{#([A-Za-z0-9_][\w-]*)\}\s*$/, '\\{#$1\\}');
      return line;
    })
    .join('\n');
}

/** Gives every heading a unique id: its custom id, or a GitHub-style slug of its text. */
export function remarkHeadingIds() {
  return (tree: Root, file: VFile) => {
    const slugger = new GithubSlugger();
    const headings: Heading[] = [];
    const used = new Set<string>();
    visit(tree, 'heading', (node) => {
      if (node.depth === 1)
        throw errorAt(
          file,
          node,
          'a chapter has no "# " heading: the title comes from the front matter; start sections with "## "',
        );
      let id: string | undefined;
      const last = node.children[node.children.length - 1];
      if (last?.type === 'text') {
        const match = CUSTOM_ID.exec(last.value);
        if (match) {
          id = match[1];
          last.value = last.value.slice(0, match.index);
          if (!last.value) node.children.pop();
        }
      }
      const text = toString(node).trim();
      if (id) {
        const first = headings.find((h) => h.id === id);
        if (first)
          throw errorAt(
            file,
            node,
            `heading id "${id}" is used twice in this chapter (first by "${first.text}" on line ${first.line})`,
          );
        slugger.slug(id); // reserve it so a later generated slug does not collide
      } else {
        id = slugger.slug(text);
        while (used.has(id)) id = slugger.slug(text);
      }
      used.add(id);
      node.data = { ...node.data, hProperties: { ...(node.data?.hProperties ?? {}), id } };
      headings.push({ depth: node.depth, text, id, line: node.position?.start.line ?? 0 });
    });
    file.data.headings = headings;
  };
}
