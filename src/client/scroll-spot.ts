/**
 * Where the reader is on a page, kept so that back, forward and reload return there, on pages whose
 * blocks further down are not laid out until they come near the viewport (content-visibility:
 * auto in the stylesheet). Until a block has been rendered once its height is an estimate, so a
 * plain scroll offset does not mean the same place twice: an offset saved with some blocks
 * estimated shows other content once they are all laid out. A spot is therefore saved as the block
 * at the top of the viewport and how far it stood from the viewport's top.
 */

/** A scroll position: the offset, and on a chapter the block it shows at the top of the viewport. */
export interface ScrollSpot {
  y: number;
  /** Index of that block among the chapter's blocks (`chapterBlocks`), and its top in the viewport. */
  block?: [index: number, top: number];
}

/** The chapter's blocks in document order: its header and footer parts, and the content's own. */
const chapterBlocks = () => [...document.querySelectorAll('.chapter>:not(.markdown),.markdown>*')];

export function readScrollSpot(): ScrollSpot {
  const y = scrollY;
  const blocks = chapterBlocks();
  const index = y ? blocks.findIndex((block) => block.getBoundingClientRect().bottom > 0) : -1;
  return index < 0 ? { y } : { y, block: [index, blocks[index].getBoundingClientRect().top] };
}

/**
 * Scrolls to a saved spot at once (route changes jump: an animated scroll across a page that was
 * just swapped would end somewhere else), with the page laid out in full so that it stays put.
 */
export function scrollToSpot(spot: ScrollSpot): void {
  if (spot.y) holdFullLayout();
  const block = spot.block && chapterBlocks()[spot.block[0]];
  scrollTo({ top: block ? scrollY + block.getBoundingClientRect().top - spot.block![1] : spot.y, behavior: 'instant' });
}

/**
 * Lays out every block (the root's `render-all` class) until two frames have passed, so that a
 * scroll made now lands where a full layout puts it. By then the browser has recorded each
 * block's real height (contain-intrinsic-size: auto), so the blocks it skips again keep those
 * heights and nothing moves when the class goes.
 */
export function holdFullLayout(): void {
  const { classList } = document.documentElement;
  classList.add('render-all');
  requestAnimationFrame(() => requestAnimationFrame(() => classList.remove('render-all')));
}

/**
 * A place in a chapter that holds in its other language: the section (its heading's id, which the
 * translations share), the block within it (both languages have the same blocks), and how far into
 * that block the reader is, as a share of its height, since the two languages' blocks differ in
 * height. `gap` is the space above the block when the reader is between blocks or above the content.
 */
export interface ChapterPlace {
  section: string;
  block: number;
  into: number;
  gap: number;
}

/** The chapter's content blocks, each with the index of its section's first block (its heading). */
function sectionedBlocks(): Array<{ block: Element; start: number; id: string }> {
  let start = 0;
  let id = '';
  return [...document.querySelectorAll('.markdown>*')].map((block, index) => {
    if (/^H[23]$/.test(block.tagName) && block.id) [start, id] = [index, block.id];
    return { block, start, id };
  });
}

/** The line the reader reads from: the top of the viewport below the navbar (scroll-padding-top). */
const readingLine = () => parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;

/** Where the reader is in the chapter shown (undefined at the top of the page, or on other pages). */
export function readChapterPlace(): ChapterPlace | undefined {
  if (!scrollY) return undefined;
  const line = readingLine();
  const blocks = sectionedBlocks();
  const index = blocks.findIndex(({ block }) => block.getBoundingClientRect().bottom > line);
  if (index < 0) return undefined;
  const { block, start, id } = blocks[index];
  const box = block.getBoundingClientRect();
  return {
    section: id,
    block: index - start,
    into: Math.max(0, (line - box.top) / box.height),
    gap: Math.max(0, box.top - line),
  };
}

/**
 * Scrolls to a place read by readChapterPlace (in this language or the other), at once and with the
 * page laid out in full, as scrollToSpot does. A section this page lacks is its top; a block past
 * its section's end, the section's heading.
 */
export function scrollToChapterPlace(place: ChapterPlace): void {
  holdFullLayout();
  const blocks = sectionedBlocks();
  const start = place.section ? blocks.findIndex(({ block }) => block.id === place.section) : 0;
  if (start < 0) return;
  const target = blocks[start + place.block];
  const block = target && target.start === start ? target.block : blocks[start]?.block;
  if (!block) return;
  const box = block.getBoundingClientRect();
  const top = target?.block === block ? place.gap - place.into * box.height : 0;
  scrollTo({ top: scrollY + box.top - readingLine() - top, behavior: 'instant' });
}
