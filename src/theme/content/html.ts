import type { Properties } from 'hast';
import { find, html as htmlSchema } from 'property-information';
import { escapeLikeReact } from '../../shared/escape-like-react.js';

/**
 * Small helpers for the content templates: chapter content is static HTML written by the build
 * (React renders only the page around it, which the browser hydrates). The markup follows
 * React's server output byte for byte where both write the same thing (escaping, `tabindex`,
 * `<br/>`), so the page reads as one document.
 */

export const escapeHtml = escapeLikeReact;

/** Elements without an end tag, written `<br/>` as React writes them. */
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

export const isVoidElement = (tagName: string) => VOID_ELEMENTS.has(tagName);

/** One attribute (` name="value"`), or nothing for an absent or false one. Values are escaped here. */
export function attribute(name: string, value: string | number | boolean | undefined): string {
  if (value === undefined || value === false) return '';
  return ` ${name}="${value === true ? '' : escapeHtml(String(value))}"`;
}

/**
 * A hast element's properties as HTML attributes, in their order: property names to attribute
 * names (className -> class, tabIndex -> tabindex, ariaLabel -> aria-label), lists joined, true
 * boolean attributes empty, absent and false ones left out. A table cell's `align` becomes the
 * `text-align` style that HTML5 expects.
 */
export function attributesOf(properties: Properties, tagName: string): string {
  let out = '';
  for (const [name, value] of Object.entries(properties)) {
    if (value === null || value === undefined || (typeof value === 'number' && Number.isNaN(value))) continue;
    if (name === 'align' && (tagName === 'td' || tagName === 'th')) {
      out += attribute('style', `text-align:${String(value)}`);
      continue;
    }
    const info = find(htmlSchema, name);
    if (Array.isArray(value)) out += attribute(info.attribute, value.join(info.commaSeparated ? ', ' : ' '));
    else if (typeof value === 'boolean' && info.booleanish) out += attribute(info.attribute, String(value));
    else out += attribute(info.attribute, value);
  }
  return out;
}
