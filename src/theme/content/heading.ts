import { format } from '../../i18n/plural.js';
import { attribute, escapeHtml } from './html.js';
import { stringProperty, textOf, type ContentTemplate } from './render-content.js';

/**
 * h2-h6 with a "#" link to itself, so readers can copy a link to the section. Screen readers hear
 * "Direct link to <heading>", not the raw slug.
 */
export const heading: ContentTemplate = (element, { strings }, render) => {
  const tag = element.tagName;
  const id = stringProperty(element, 'id');
  let link = '';
  if (id) {
    const label = escapeHtml(format(strings.headingLink, { heading: textOf(element.children).trim() }));
    link = `<a class="hash-link" href="#${escapeHtml(id)}" aria-label="${label}" title="${label}">#</a>`;
  }
  return `<${tag}${attribute('id', id)} class="anchor">${render(element.children)}${link}</${tag}>`;
};
