import { escapeHtml } from './html.js';
import { stringProperty, type ContentTemplate } from './render-content.js';

type Kind = 'note' | 'tip' | 'info' | 'warning' | 'danger';
const ICONS: Record<Kind, string> = { note: 'ℹ', tip: '💡', info: 'ℹ', warning: '⚠', danger: '🔥' };

/** `:::kind[title]` containers. */
export const admonition: ContentTemplate = (element, { strings }, render) => {
  const kind = (stringProperty(element, 'kind') ?? 'note') as Kind;
  const title = stringProperty(element, 'title') ?? strings.admonition[kind] ?? kind;
  return `<div class="admonition admonition-${escapeHtml(kind)}" role="note"><p class="admonition-heading">`
    + `<span class="admonition-icon" aria-hidden="true">${ICONS[kind] ?? ICONS.note}</span>${escapeHtml(title)}</p>`
    + `<div class="admonition-content">${render(element.children)}</div></div>`;
};
