import type { Root, Paragraph } from 'mdast';
import type { ContainerDirective } from 'mdast-util-directive';
import { toString } from 'mdast-util-to-string';
import type { VFile } from 'vfile';
import { SKIP, visit } from '../visit.js';
import { errorAt } from './located-error.js';

export const ADMONITION_KINDS = ['note', 'tip', 'info', 'warning', 'danger'] as const;

/**
 * `:::tip[Title]` containers become Admonition components. remark-directive also reads
 * `10:30` or `a:b` in prose as text/leaf directives: those go back to the text they were.
 */
export function remarkAdmonitions() {
  return (tree: Root, file: VFile) => {
    const source = String(file.value);
    visit(tree, (node, index, parent) => {
      if (node.type === 'containerDirective') {
        toAdmonition(node, file);
        return;
      }
      if ((node.type === 'textDirective' || node.type === 'leafDirective') && parent && index !== undefined) {
        const start = node.position?.start.offset;
        const end = node.position?.end.offset;
        const text = start !== undefined && end !== undefined ? source.slice(start, end) : `:${node.name}`;
        const replacement =
          node.type === 'leafDirective'
            ? ({ type: 'paragraph', children: [{ type: 'text', value: text }] } as Paragraph)
            : { type: 'text' as const, value: text };
        parent.children.splice(index, 1, replacement as never);
        return [SKIP, index + 1];
      }
    });
  };
}

function toAdmonition(node: ContainerDirective, file: VFile) {
  if (!(ADMONITION_KINDS as readonly string[]).includes(node.name)) {
    throw errorAt(
      file,
      node,
      `unknown admonition ":::${node.name}": use one of ${ADMONITION_KINDS.map((k) => `:::${k}`).join(', ')}`,
    );
  }
  let title: string | undefined;
  let label: Paragraph | undefined;
  const first = node.children[0];
  if (first?.type === 'paragraph' && (first.data as { directiveLabel?: boolean } | undefined)?.directiveLabel) {
    title = toString(first);
    label = first;
    node.children.shift();
  }
  // The title as written (with its code and emphasis) stays on the node for later stages (src/llms/).
  node.data = {
    hName: 'Admonition',
    hProperties: { kind: node.name, ...(title ? { title } : {}) },
    ...(title ? { label } : {}),
  };
}
