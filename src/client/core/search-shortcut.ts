/**
 * The search box's keys, one rule for the static page (boot.ts) and the app's search box:
 * Ctrl+K or ⌘K anywhere, and `/` when the reader is not typing in a field.
 */
export function isSearchShortcut(event: KeyboardEvent): boolean {
  const typing =
    event.target instanceof HTMLElement &&
    (event.target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName));
  const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !typing;
  return slash || ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k');
}

/**
 * Puts the keys in the search box, with the page left where it is: Chromium scrolls a focused
 * field of a sticky bar to where the bar would be unstuck (the top) unless told not to scroll.
 */
export function focusSearchBox(input: HTMLInputElement): void {
  input.focus({ preventScroll: true });
  input.select();
}
