import type { OfflineStrings } from '../../shared/i18n/types.js';
import { adoptOfflineStyles } from './offline-styles.js';

/**
 * "A new version of the book is available — Reload", at the foot of the page: a polite status
 * (announced, never taking focus), shown once. Nothing changes until the reader asks: the new
 * version comes with the next page they open, or at once with Reload.
 */
export function showUpdateNotice(strings: OfflineStrings, reload: () => void): void {
  if (document.querySelector('.offline-update')) return;
  adoptOfflineStyles();
  const notice = document.createElement('div');
  notice.className = 'offline-update';
  notice.setAttribute('role', 'status');
  const text = document.createElement('p');
  text.textContent = strings.updateAvailable;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button button-primary';
  button.textContent = strings.reload;
  button.addEventListener('click', () => {
    button.disabled = true;
    reload();
  });
  notice.append(text, button);
  document.body.append(notice);
}
