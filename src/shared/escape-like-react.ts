const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/**
 * Escapes text or an attribute value exactly as React's server renderer does, for markup the
 * build writes itself beside React's (highlighted code, the shared sidebar): the bytes match.
 */
export const escapeLikeReact = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
