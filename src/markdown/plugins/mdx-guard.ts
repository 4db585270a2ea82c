import type { Root, Parent, RootContent } from 'mdast';
import type { MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import type { VFile } from 'vfile';
import { SKIP, visit } from '../visit.js';
import { authorAttributes, authorComponentNames } from '../../theme/content/components.js';
import { errorAt } from './located-error.js';

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
          throw errorAt(
            file,
            node,
            `JavaScript expressions are not allowed in chapters: {${node.value.trim().slice(0, 40)}}. To show braces as text write \\{ or put them in \`code\`.`,
          );
        }
        case 'mdxJsxFlowElement':
        case 'mdxJsxTextElement':
          checkComponent(node, file);
          return;
      }
    });
    unwrapJsxParagraphs(tree);
    // After unwrapping, so that a component's parent is the component it sits in, not a paragraph.
    visit(tree, (node, _index, parent) => {
      if (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') checkStructure(node, parent, file);
    });
  };
}

function checkComponent(node: MdxJsxFlowElement | MdxJsxTextElement, file: VFile) {
  const name = node.name;
  if (!name) throw errorAt(file, node, 'JSX fragments (<>…</>) are not allowed in chapters');
  // The components authors may use, and their attributes, are those of the registry (docs/authoring.md).
  const allowed = authorAttributes(name);
  if (!allowed) {
    throw errorAt(
      file,
      node,
      `unknown component <${name}>: chapters may use ${authorComponentNames()
        .map((c) => `<${c}>`)
        .join(', ')}. A literal "<" in prose must be escaped as \\< or put in \`code\`.`,
    );
  }
  for (const attribute of node.attributes) {
    if (attribute.type !== 'mdxJsxAttribute')
      throw errorAt(file, node, `<${name}> does not accept {...spread} attributes`);
    if (!allowed.includes(attribute.name)) {
      throw errorAt(
        file,
        node,
        `<${name}> has no attribute "${attribute.name}"${allowed.length ? ` (it accepts ${allowed.join(', ')})` : ''}`,
      );
    }
    if (typeof attribute.value !== 'string')
      throw errorAt(file, node, `attribute "${attribute.name}" of <${name}> must be a plain string in quotes`);
  }
}

const isElement = (node: { type: string }, name: string) =>
  (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && (node as MdxJsxFlowElement).name === name;
const isBlank = (node: RootContent) => node.type === 'text' && !node.value.trim();

/**
 * The components drop what does not fit their shape (Tabs shows only TabItems, Compare labels
 * two columns): reject such content instead of losing it silently.
 */
function checkStructure(node: MdxJsxFlowElement | MdxJsxTextElement, parent: Parent | undefined, file: VFile) {
  const children = (node.children as RootContent[]).filter((c) => !isBlank(c));
  if (node.name === 'TabItem') {
    if (!parent || !isElement(parent, 'Tabs')) throw errorAt(file, node, '<TabItem> must be directly inside <Tabs>');
    if (!node.attributes.some((a) => a.type === 'mdxJsxAttribute' && a.name === 'value'))
      throw errorAt(file, node, '<TabItem> needs a value="..." attribute');
  }
  if (node.name === 'Tabs') {
    const stray = children.find((c) => !isElement(c, 'TabItem'));
    if (stray)
      throw errorAt(
        file,
        stray.position ? stray : node,
        '<Tabs> may only contain <TabItem> elements; put text inside a <TabItem>',
      );
    if (!children.length) throw errorAt(file, node, '<Tabs> needs at least one <TabItem>');
    // Only plain strings compare here: any other value fails the attribute check ("a plain string in quotes").
    const values = children.map((c) => {
      const value = (c as MdxJsxFlowElement).attributes.find(
        (a) => a.type === 'mdxJsxAttribute' && a.name === 'value',
      )?.value;
      return typeof value === 'string' ? value : undefined;
    });
    const repeated = values.find((v, i) => v !== undefined && values.indexOf(v) !== i);
    if (repeated !== undefined) throw errorAt(file, node, `<Tabs> has two <TabItem value="${repeated}">`);
  }
  if (node.name === 'Compare') {
    const blocks = children.filter((c) => !(c.type === 'code' && c.lang === 'output'));
    if (blocks.length !== 2 || blocks.some((c) => c.type !== 'code')) {
      throw errorAt(
        file,
        node,
        '<Compare> holds exactly two code blocks (JavaScript first, then Python), each optionally followed by its ```output block',
      );
    }
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
      const lifted = meaningful.map((c) => ({ ...c, type: 'mdxJsxFlowElement' }) as unknown as RootContent);
      parent.children.splice(index, 1, ...lifted);
      return [SKIP, index + lifted.length];
    }
  });
}
