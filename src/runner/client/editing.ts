/**
 * Editing an example: Edit swaps the code for an editor (CodeMirror, a chunk of its own), Reset
 * puts the book's code back. The reader's text is kept in this browser (progress/client/store.ts)
 * as they type, so it is there again after a reload, in another tab, on the next visit, and in
 * the other language where the example's code is the same (where it is not, each language keeps
 * its own). Each edit is keyed by its example's
 * code as the book prints it (progress/client/block-keys.ts): when the book changes that example,
 * the edit no longer fits it, and it is moved aside with a notice instead of being lost.
 */
import type { RunnerStrings } from '../../shared/i18n/types.js';
import { blockKeys } from '../../progress/client/block-keys.js';
import type { LearnerStore } from '../../progress/client/store.js';
import { blockParts, bookCode, chapterOf, editableBlocks, fill, langOf, languageName } from './block.js';
import { editorIn, remember } from './editors.js';
import { readsInput, stdinField } from './run-example.js';

/** CodeMirror, fetched when the reader points at Edit or presses it (a chunk of its own). */
export const loadEditor = () => import('./editor.js');
/** Blocks whose editor is being loaded: a second press of Edit meanwhile makes no second editor. */
const opening = new WeakSet<Element>();

/** The key of each editable example of the page (computed once per rendered page). */
const keysByBlock = new WeakMap<Element, string>();

function keyOf(block: HTMLElement): string | undefined {
  if (!keysByBlock.has(block)) {
    const root = block.closest('.markdown') ?? document;
    const blocks = editableBlocks(root);
    blockKeys(blocks.map(bookCode)).forEach((key, i) => keysByBlock.set(blocks[i], key));
  }
  return keysByBlock.get(block);
}

/** Keeps the reader's text of `block` (undefined: forgets it); says so when the browser refuses. */
function keep(store: LearnerStore, block: HTMLElement, code: string | undefined, t: RunnerStrings): void {
  const slug = chapterOf(block);
  const key = keyOf(block);
  if (!slug || !key) return;
  if (!store.saveCode(slug, key, code)) blockParts(block).status.textContent = t.editNotKept;
}

export async function edit(
  block: HTMLElement,
  store: LearnerStore,
  t: RunnerStrings,
  code = bookCode(block),
  focus = true,
): Promise<void> {
  const parts = blockParts(block);
  const open = editorIn(block);
  if (open) {
    // Already editing (the page put the reader's code back as they pressed Edit): that editor is it.
    if (focus) open.focus();
    return;
  }
  if (opening.has(block)) return;
  opening.add(block);
  let createEditor: Awaited<ReturnType<typeof loadEditor>>['createEditor'];
  try {
    ({ createEditor } = await loadEditor());
  } finally {
    opening.delete(block);
  }
  if (editorIn(block)) return;
  const lang = langOf(block);
  const editor = remember(
    createEditor({
      code,
      lang,
      label: fill(t.editorLabel, { language: languageName(lang) }),
      onChange: (text) => {
        // An edit back to the book's code is no edit: nothing is kept for it.
        keep(store, block, text === bookCode(block) ? undefined : text, t);
        if (readsInput(lang, text)) stdinField(block, t, true);
      },
      onRun: () => {
        if (parts.mainButton.dataset.codeAction !== 'stop') parts.mainButton.click();
      },
    }),
  );
  if (parts.status.querySelector('.code-run-undo')) parts.status.replaceChildren(); // Reset's Undo is moot now
  parts.pre.hidden = true;
  parts.pre.after(editor.element);
  block.classList.add('editing');
  parts.editButton.dataset.codeAction = 'reset';
  parts.editButton.textContent = t.reset;
  parts.editButton.setAttribute('aria-label', t.resetLabel);
  if (readsInput(lang, code)) stdinField(block, t, true);
  if (focus) editor.focus();
}

/**
 * Shows the book's code again, and forgets the reader's, with an Undo beside the status line that
 * puts it back: a press of Reset, even one meant for the Edit the button said a moment before, never
 * loses the reader's work.
 */
export function reset(block: HTMLElement, store: LearnerStore, t: RunnerStrings, focus = true): void {
  const parts = blockParts(block);
  const editor = editorIn(block);
  const readerCode = editor?.value();
  editor?.element.remove();
  parts.pre.hidden = false;
  block.classList.remove('editing');
  keep(store, block, undefined, t);
  parts.editButton.dataset.codeAction = 'edit';
  parts.editButton.textContent = t.edit;
  parts.editButton.setAttribute('aria-label', t.editLabel);
  if (readerCode !== undefined && readerCode !== bookCode(block)) offerUndo(block, store, t, readerCode);
  if (focus) parts.pre.focus();
}

/** "Back to the book's code. Undo": Undo opens the editor on the reader's code and keeps it again. */
function offerUndo(block: HTMLElement, store: LearnerStore, t: RunnerStrings, code: string): void {
  const { status } = blockParts(block);
  const undo = document.createElement('button');
  undo.type = 'button';
  undo.className = 'code-run-undo';
  undo.textContent = t.undoReset;
  undo.setAttribute('aria-label', t.undoResetLabel);
  status.replaceChildren(`${t.resetDone} `, undo);
  undo.addEventListener(
    'click',
    () => {
      status.replaceChildren();
      keep(store, block, code, t);
      void edit(block, store, t, code);
    },
    { once: true },
  );
}

/**
 * Puts back the reader's code in the examples of the rendered chapter `root`; edits whose example
 * is no longer in the chapter (the book changed its code) are moved aside: gives their count.
 */
export async function restoreEdits(root: ParentNode, store: LearnerStore, t: RunnerStrings): Promise<number> {
  const blocks = editableBlocks(root);
  const slug = blocks.length ? chapterOf(blocks[0]) : undefined;
  if (!slug) return 0;
  const saved = store.codeOf(slug);
  const keys = blockKeys(blocks.map(bookCode));
  // Only this language's edits can have lost their example here: the other language may write an
  // example differently (its text in Chinese, say), and its edits wait for its own page.
  const orphans = Object.keys(saved).filter((key) => !keys.includes(key) && saved[key].locale === store.locale);
  if (orphans.length) store.drop(slug, orphans);
  await Promise.all(
    keys.map(async (key, i) => {
      const block = blocks[i];
      keysByBlock.set(block, key);
      const code = saved[key]?.code;
      if (code === undefined) return;
      if (editorIn(block)) return;
      await edit(block, store, t, code, false);
    }),
  );
  return orphans.length;
}
