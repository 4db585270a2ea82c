import { attribute, escapeHtml } from './html.js';
import { elementChildren, stringProperty, type ContentTemplate } from './render-content.js';

/**
 * Accessible tabs (WAI-ARIA tabs pattern) from `<Tabs>` and its `<TabItem value label>` children.
 * Written with the first (or default) tab open; the client switches panels by toggling `hidden`,
 * so every panel's text is in the HTML (and shown, each under its label, when JavaScript does not
 * run). Sets with the same `groupId` switch together.
 */
export const tabs: ContentTemplate = (element, context, render) => {
  const baseId = context.nextId();
  const items = elementChildren(element).flatMap((child) => {
    const value = stringProperty(child, 'value');
    return value === undefined ? [] : [{ value: escapeHtml(value), label: escapeHtml(stringProperty(child, 'label') ?? value), children: child.children }];
  });
  const defaultValue = stringProperty(element, 'defaultValue');
  const wanted = defaultValue === undefined ? undefined : escapeHtml(defaultValue);
  const selected = items.some((item) => item.value === wanted) ? wanted : items[0]?.value;
  const buttons = items.map((item) => {
    const active = item.value === selected;
    return `<button type="button" role="tab" class="tabs-tab" id="${baseId}-tab-${item.value}" aria-selected="${active}" aria-controls="${baseId}-panel-${item.value}" tabindex="${active ? 0 : -1}" data-tab="${item.value}">${item.label}</button>`;
  });
  const panels = items.map((item) =>
    `<div role="tabpanel" class="tabs-panel" id="${baseId}-panel-${item.value}" aria-labelledby="${baseId}-tab-${item.value}"${attribute('hidden', item.value !== selected)} data-tab-panel="${item.value}" data-tab-label="${item.label}">${render(item.children)}</div>`);
  return `<div class="tabs" data-tabs=""${attribute('data-group', stringProperty(element, 'groupId'))}><div role="tablist" class="tabs-list">${buttons.join('')}</div>${panels.join('')}</div>`;
};

/** A `<TabItem>` outside `<Tabs>`: just its content. */
export const tabItem: ContentTemplate = (element, _context, render) => render(element.children);
