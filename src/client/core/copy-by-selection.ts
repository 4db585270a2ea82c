/**
 * Copies `text` the old way, through a hidden selected textarea: the fallback where the Clipboard
 * API is missing or refused (an insecure context, permissions). False when the browser refused.
 */
export function copyBySelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } finally {
    area.remove();
  }
}
