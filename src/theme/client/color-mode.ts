/** Colour mode: stored under the `theme` key (no namespace) as the spec requires. */
export type ColorMode = 'light' | 'dark';
export const COLOR_MODE_KEY = 'theme';

export function currentColorMode(): ColorMode {
  return document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

export function applyColorMode(mode: ColorMode): void {
  document.documentElement.dataset.theme = mode;
  document.documentElement.style.colorScheme = mode;
  window.dispatchEvent(new Event('pybook:color-mode'));
}

export function storeColorMode(mode: ColorMode): void {
  try {
    localStorage.setItem(COLOR_MODE_KEY, mode);
  } catch {
    /* storage disabled: the choice lasts for this page */
  }
}
