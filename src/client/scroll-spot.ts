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
