import { applyColorMode, COLOR_MODE_KEY, type ColorMode } from '../theme/client/color-mode.js';

/** Keeps the colour mode in step with other tabs and, while nothing is stored, with the system. */
export function syncColorMode(): void {
  window.addEventListener('storage', (event) => {
    if (event.key !== COLOR_MODE_KEY) return;
    if (event.newValue === 'light' || event.newValue === 'dark') applyColorMode(event.newValue);
    else applyColorMode(systemMode());
  });
  const query = window.matchMedia?.('(prefers-color-scheme: dark)');
  query?.addEventListener?.('change', () => {
    if (!storedMode()) applyColorMode(systemMode());
  });
}

function storedMode(): ColorMode | undefined {
  try {
    const value = localStorage.getItem(COLOR_MODE_KEY);
    return value === 'light' || value === 'dark' ? value : undefined;
  } catch {
    return undefined;
  }
}

function systemMode(): ColorMode {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/**
 * Spec: the docs version choice persists in local storage. The book has one version ("current"),
 * so nothing reads the choice back yet: a second version's switcher would (it was a reader with
 * no caller, removed).
 */
export const VERSION_KEY = 'docs-preferred-version-default';

export function rememberDocsVersion(version: string): void {
  try {
    if (!localStorage.getItem(VERSION_KEY)) localStorage.setItem(VERSION_KEY, version);
  } catch {
    /* storage disabled */
  }
}
