/**
 * "Copy page as Markdown" (MarkdownActions.tsx): a chunk of its own, loaded on the first click.
 * Copies the chapter's Markdown, then says so for two seconds on the button (its data-copied or
 * data-failed label) and to screen readers (the status beside it).
 */
import { copyBySelection } from '../../client/core/copy-by-selection.js';

export function copyPageMarkdown(button: HTMLButtonElement, url: string): Promise<void> {
  const shown = copyMarkdown(url).then(
    () => button.dataset.copied ?? '',
    () => button.dataset.failed ?? '',
  );
  return shown.then((said) => {
    const label = (button.dataset.label ??= button.textContent ?? '');
    const status = button.parentElement?.querySelector('[role=status]');
    button.textContent = said;
    if (status) status.textContent = said;
    window.clearTimeout(Number(button.dataset.timer));
    button.dataset.timer = String(
      window.setTimeout(() => {
        button.textContent = label;
        if (status) status.textContent = '';
      }, 2000),
    );
  });
}

/** Copies the Markdown at `url` to the clipboard. */
export async function copyMarkdown(url: string): Promise<void> {
  const text = fetchText(url);
  // A ClipboardItem made during the click may take its text later: Safari allows no other way
  // to write what a fetch brings once the click is over.
  if (typeof ClipboardItem !== 'undefined' && navigator.clipboard?.write) {
    try {
      const blob = text.then((value) => new Blob([value], { type: 'text/plain' }));
      await navigator.clipboard.write([new ClipboardItem({ 'text/plain': blob })]);
      return;
    } catch {
      // Refused (no permission, an older engine): the ways below.
    }
  }
  const value = await text;
  try {
    await navigator.clipboard.writeText(value);
  } catch {
    // No Clipboard API (an insecure context, say): a selected text area and the copy command.
    if (!copyBySelection(value)) throw new Error('the browser refused to copy');
  }
}

async function fetchText(url: string): Promise<string> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`cannot fetch ${url} (HTTP ${response.status})`);
  return response.text();
}
