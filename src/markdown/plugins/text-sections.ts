import type { Root, RootContent, Nodes } from 'mdast';
import type { VFile } from 'vfile';
import type { TextSection } from '../../shared/model/chapter.js';

/** Plain text of a node with code blocks left out (search indexes prose, not code listings). */
export function proseText(node: Nodes): string {
  if (node.type === 'code' || node.type === 'yaml') return '';
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if ('children' in node) {
    const inline =
      node.type === 'paragraph' ||
      node.type === 'heading' ||
      node.type === 'emphasis' ||
      node.type === 'strong' ||
      node.type === 'link' ||
      node.type === 'delete' ||
      node.type === 'mdxJsxTextElement';
    return (node.children as Nodes[])
      .map(proseText)
      .filter(Boolean)
      .join(inline ? '' : ' ');
  }
  return '';
}

const JAVASCRIPT = new Set(['javascript', 'js', 'typescript', 'ts', 'jsx', 'tsx']);

/** The JavaScript code blocks of the `<Compare>` elements in a node (the JavaScript side of each comparison). */
export function comparedJavaScript(node: Nodes): string[] {
  if (node.type === 'mdxJsxFlowElement' && node.name === 'Compare') {
    return node.children.flatMap((child) =>
      child.type === 'code' && JAVASCRIPT.has(child.lang ?? '') ? [child.value] : [],
    );
  }
  return 'children' in node ? (node.children as Nodes[]).flatMap(comparedJavaScript) : [];
}

/** The inline code spans of a node's prose (code blocks left out), in order. */
export function inlineCode(node: Nodes): string[] {
  if (node.type === 'inlineCode') return [node.value];
  if (node.type === 'code' || node.type === 'yaml' || !('children' in node)) return [];
  return (node.children as Nodes[]).flatMap(inlineCode);
}

const joinLines = (...parts: (string | undefined)[]) => parts.filter(Boolean).join('\n');

/** Splits a chapter into its introduction and one section per h2/h3, for search documents. */
export function collectSections(tree: Root, file: VFile): TextSection[] {
  const headings = file.data.headings ?? [];
  const sections: TextSection[] = [{ text: '' }];
  let headingIndex = 0;
  const append = (text: string) => {
    const current = sections[sections.length - 1];
    current.text = current.text ? `${current.text} ${text}` : text;
  };
  const walk = (nodes: RootContent[]) => {
    for (const node of nodes) {
      if (node.type === 'heading') {
        const heading = headings[headingIndex++];
        if (heading && heading.depth <= 3) {
          const section: TextSection = { headingId: heading.id, heading: heading.text, depth: heading.depth, text: '' };
          const code = inlineCode(node);
          if (code.length) section.headingCode = joinLines(...code);
          if (node.data?.searchKeywords?.length) section.keywords = node.data.searchKeywords;
          sections.push(section);
          continue;
        }
      }
      const current = sections[sections.length - 1];
      const text = proseText(node).replace(/\s+/g, ' ').trim();
      if (text) append(text);
      const code = inlineCode(node);
      if (code.length) current.code = joinLines(current.code, ...code);
      const javascript = comparedJavaScript(node);
      if (javascript.length) current.javascript = joinLines(current.javascript, ...javascript);
    }
  };
  walk(tree.children);
  return sections.filter((s, i) => (i === 0 ? s.text || s.javascript : true));
}

/** Words for reading time: Latin words plus CJK characters (each read like a short word). */
export function countWords(text: string): number {
  // One pass over the character codes: matching every CJK character with a regular expression
  // made an array of some 300,000 one-character strings per build.
  let cjk = 0;
  let latin = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff)) {
      cjk++;
      inWord = false;
    } else if (isWordCharacter(c)) {
      if (!inWord) latin++;
      inWord = true;
    } else inWord = false;
  }
  return latin + Math.round(cjk / 1.5);
}

/** A–Z, a–z, 0–9, _, ', ’ and -: what a Latin word is made of. */
function isWordCharacter(c: number): boolean {
  return (
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    (c >= 48 && c <= 57) ||
    c === 95 ||
    c === 39 ||
    c === 0x2019 ||
    c === 45
  );
}
