/**
 * The code editor of an example being edited, behind a small seam: ui.ts only creates one, reads
 * its text and focuses it. (A plain textarea for now; a richer editor replaces this module alone.)
 */
export interface CodeEditor {
  /** The element to put in the page in place of the code. */
  readonly element: HTMLElement;
  value(): string;
  focus(): void;
}

export interface EditorOptions {
  code: string;
  /** Accessible name. */
  label: string;
  onChange(code: string): void;
}

export function createEditor({ code, label, onChange }: EditorOptions): CodeEditor {
  const editor = document.createElement('textarea');
  editor.className = 'code-editor';
  editor.value = code;
  editor.spellcheck = false;
  editor.setAttribute('autocapitalize', 'off');
  editor.setAttribute('autocomplete', 'off');
  editor.setAttribute('aria-label', label);
  editor.setAttribute('aria-keyshortcuts', 'Control+Enter Meta+Enter');
  const fit = () => { editor.rows = Math.max(2, editor.value.split('\n').length); };
  fit();
  editor.addEventListener('input', () => { fit(); onChange(editor.value); });
  return { element: editor, value: () => editor.value, focus: () => editor.focus() };
}

/** The editor already in a block, if any (its text survives as long as the element does). */
export function editorIn(block: Element): CodeEditor | undefined {
  const editor = block.querySelector<HTMLTextAreaElement>('textarea.code-editor');
  return editor ? { element: editor, value: () => editor.value, focus: () => editor.focus() } : undefined;
}
