import { useSyncExternalStore } from 'react';
import { useSite } from '../site-context.js';
import { MoonIcon, SunIcon } from '../icons.js';
import { applyColorMode, currentColorMode, storeColorMode, type ColorMode } from '../color-mode.js';

/** applyColorMode announces every change of html[data-theme] with this event. */
const subscribeToColorMode = (onChange: () => void) => {
  window.addEventListener('pybook:color-mode', onChange);
  return () => window.removeEventListener('pybook:color-mode', onChange);
};
const unknownOnServer = () => null;

/**
 * Light/dark switch. The server cannot know the reader's mode, so the first render is neutral
 * (the inline head script has already painted the right colours) and the label follows on hydration.
 */
export function ColorModeToggle() {
  const { strings } = useSite();
  const mode = useSyncExternalStore<ColorMode | null>(subscribeToColorMode, currentColorMode, unknownOnServer);
  const next: ColorMode = mode === 'dark' ? 'light' : 'dark';
  // Before hydration (mode null) it offers dark, as it does in light mode.
  const label = next === 'dark' ? strings.colorModeToDark : strings.colorModeToLight;
  return (
    <button
      type="button"
      className="navbar-icon-button color-mode-toggle"
      aria-label={label}
      title={label}
      onClick={() => {
        const value = currentColorMode() === 'dark' ? 'light' : 'dark';
        applyColorMode(value);
        storeColorMode(value);
      }}
    >
      <span className="icon-light">
        <SunIcon />
      </span>
      <span className="icon-dark">
        <MoonIcon />
      </span>
    </button>
  );
}
