import v8 from 'node:v8';

/** Chapter files (all locales) from which a one-off build bounds the heap's growth. */
export const LARGE_BOOK_CHAPTER_FILES = 1000;
/** Each major collection lets the heap grow to 1.5 times what survived it. */
export const LARGE_BOOK_HEAP_GROWING_PERCENT = 50;

/**
 * The heap growth a build of this many chapter files should run with, or undefined for V8's own.
 *
 * V8 lets the heap grow to between 1.1 and 4 times what survived the last major collection,
 * depending on how fast collecting was. A 1,000-chapter book keeps some 300 MB alive while its
 * pages render, so its peak memory swung between 0.6 and 1.2 GB from one run to the next. Held
 * to 1.5 times, it stays near 0.65 GB and takes no longer. A small book's heap stays small
 * either way, and more frequent collections would only slow it (by about a tenth, measured on
 * the real book), so it keeps V8's choice.
 */
export function heapGrowingPercentFor(chapterFiles: number): number | undefined {
  return chapterFiles >= LARGE_BOOK_CHAPTER_FILES ? LARGE_BOOK_HEAP_GROWING_PERCENT : undefined;
}

let applied: number | undefined;

/** Applies heapGrowingPercentFor to this process (V8 reads the flag at every major collection). */
export function boundHeapGrowth(chapterFiles: number): void {
  const percent = heapGrowingPercentFor(chapterFiles);
  if (percent === undefined || percent === applied) return;
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  applied = percent;
}
