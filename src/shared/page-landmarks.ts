/** Ids of the page's landmarks that code outside the React tree finds. */

/** Every page's <main>: the skip link's target, and where focus goes after a client navigation. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * Every page's footer, the first element after <main> ends: the first frame waits until the parser
 * reaches it (render-page.ts, rel=expect). Chromium stops waiting at the target's start tag, so the
 * target is the element after the content, not <main> itself.
 */
export const FOOTER_ID = 'site-footer';
