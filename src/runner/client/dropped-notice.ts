/**
 * The notice a chapter shows when the book changed examples the reader had edited: their edits
 * no longer fit those examples, so they are not put back, but they are not lost either. The
 * notice shows them, to copy, until the reader dismisses it.
 */
import { plural } from '../../shared/i18n/plural.js';
import type { InterfaceStrings } from '../../shared/i18n/types.js';
import type { LearnerStore } from '../../progress/client/store.js';

export function showDroppedNotice(
  article: HTMLElement,
  slug: string,
  store: LearnerStore,
  strings: InterfaceStrings,
  htmlLang: string,
): void {
  article.querySelector('.learner-dropped')?.remove();
  const dropped = store.droppedOf(slug);
  if (!dropped.length) return;
  const t = strings.progress;
  const notice = document.createElement('div');
  notice.className = 'admonition admonition-info learner-dropped';
  notice.setAttribute('role', 'note');
  const text = document.createElement('p');
  text.textContent = plural(t.dropped, dropped.length, htmlLang);
  const details = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = t.droppedShow;
  details.append(summary);
  for (const { code } of dropped) {
    const pre = document.createElement('pre');
    pre.className = 'learner-dropped-code';
    pre.tabIndex = 0;
    pre.textContent = code;
    details.append(pre);
  }
  const dismiss = document.createElement('button');
  dismiss.type = 'button';
  dismiss.className = 'button button-secondary';
  dismiss.textContent = t.droppedDismiss;
  dismiss.addEventListener('click', () => {
    store.dismissDropped(slug);
    notice.remove();
  });
  const content = document.createElement('div');
  content.className = 'admonition-content';
  content.append(text, details, dismiss);
  notice.append(content);
  (article.querySelector('.chapter-header') ?? article).after(notice);
}
