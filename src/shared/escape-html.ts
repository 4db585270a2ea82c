const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
const SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;

/**
 * pybook's one HTML escaper, for text and attribute values in markup the build writes itself
 * (highlighted code, the shared sidebar, the document's head). It escapes exactly what React's
 * server renderer escapes, the same way, so markup written beside React's reads as one document.
 * Most pieces of code and text have nothing to escape: testing first skips building a new string.
 */
export const escapeHtml = (text: string): string =>
  SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPES[c]) : text;
