import type { Root, Parent, RootContent } from 'mdast';
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import type { VFile } from 'vfile';
import { SKIP, visit } from 'unist-util-visit';
import { errorAt } from './located-error.js';

/** The components authors may use, with the attributes each accepts (docs/authoring.md). */
export const AUTHOR_COMPONENTS: Record<string, string[]> = {
  Compare: [],
  Tabs: ['defaultValue'],
  TabItem: ['value', 'label'],
  Answer: ['summary'],
};

const COMMENT_ONLY = /^\s*(\/\*[\s\S]*?\*\/\s*)+$/;

/**
 * MDX is a superset of markdown with JavaScript in it; pybook allows none of the JavaScript.
 * Comments are dropped; every other expression, import/export and unknown component fails
 * with the file position, so an author sees exactly what to change.
 */
export function remarkMdxGuard() {
  return (tree: Root, file: VFile) => {
    visit(tree, (node, index, parent) => {
      switch (node.type) {
        case 'mdxjsEsm':
          throw errorAt(file, node, 'import and export statements are not allowed in chapters');
        case 'mdxFlowExpression':
        case 'mdxTextExpression': {
          if (COMMENT_ONLY.test(node.value) && parent && index !== undefined) {
            parent.children.splice(index, 1);
            return [SKIP, index];
          }
          throw errorAt(file, node, `JavaScript expressions are not allowed in chapters: {${node.value.trim().slice(0, 40)}}. To show braces as text write \\{ or put them in \`code\`.`);
        }
        case 'mdxJsxFlowElement':
        case 'mdxJsxTextElement':
          checkComponent(node, file);
          return;
      }
    });
    unwrapJsxParagraphs(tree);
  };
}

function checkComponent(node: MdxJsxFlowElement | MdxJsxTextElement, file: VFile) {
  const name = node.name;
  if (!name) throw errorAt(file, node, 'JSX fragments (<>…</>) are not allowed in chapters');
  const allowed = AUTHOR_COMPONENTS[name];
  if (!allowed) {
    throw errorAt(file, node, `unknown component <${name}>: chapters may use ${Object.keys(AUTHOR_COMPONENTS).map((c) => `<${c}>`).join(', ')}. A literal "<" in prose must be escaped as \\< or put in \`code\`.`);
  }
  for (const attribute of node.attributes) {
    if (attribute.type !== 'mdxJsxAttribute') throw errorAt(file, node, `<${name}> does not accept {...spread} attributes`);
    if (!allowed.includes(attribute.name)) {
      throw errorAt(file, node, `<${name}> has no attribute "${attribute.name}"${allowed.length ? ` (it accepts ${allowed.join(', ')})` : ''}`);
    }
    if (typeof attribute.value !== 'string') throw errorAt(file, node, `attribute "${attribute.name}" of <${name}> must be a plain string in quotes`);
  }
}

/**
 * A component alone on its line inside a paragraph would render as <p><div>, which is invalid
 * HTML and breaks hydration: lift such components out of their paragraph.
 */
function unwrapJsxParagraphs(tree: Root) {
  visit(tree, 'paragraph', (node, index, parent: Parent | undefined) => {
    if (!parent || index === undefined) return;
    const meaningful = node.children.filter((c) => !(c.type === 'text' && !c.value.trim()));
    if (meaningful.length && meaningful.every((c) => c.type === 'mdxJsxTextElement')) {
      const lifted = meaningful.map((c) => ({ ...(c as MdxJsxTextElement), type: 'mdxJsxFlowElement' }) as unknown as RootContent);
      parent.children.splice(index, 1, ...(lifted as typeof parent.children));
      return [SKIP, index + lifted.length];
    }
  });
}
