/**
 * The editors in the page, found from their block without loading CodeMirror (editor.ts is a
 * chunk of its own, fetched only for editing): a Run reads the edited text through this.
 */
import type { CodeEditor } from './editor.js';

const editors = new WeakMap<Element, CodeEditor>();

export function remember(editor: CodeEditor): CodeEditor {
  editors.set(editor.element, editor);
  return editor;
}

/** The editor already in a block, if any (its text survives as long as the element does). */
export function editorIn(block: Element): CodeEditor | undefined {
  const element = block.querySelector('.code-editor');
  return element ? editors.get(element) : undefined;
}
