import { useEffect, useState } from 'react';
import { useSite } from '../site-context.js';
import { MoonIcon, SunIcon } from '../icons.js';
import { applyColorMode, currentColorMode, storeColorMode, type ColorMode } from '../color-mode.js';

/**
 * Light/dark switch. The server cannot know the reader's mode, so the first render is neutral
 * (the inline head script has already painted the right colours) and the label follows on mount.
 */
export function ColorModeToggle() {
  const { strings } = useSite();
  const [mode, setMode] = useState<ColorMode | null>(null);
  useEffect(() => {
    setMode(currentColorMode());
    const sync = () => setMode(currentColorMode());
    window.addEventListener('pybook:color-mode', sync);
    return () => window.removeEventListener('pybook:color-mode', sync);
  }, []);
  const next: ColorMode = mode === 'dark' ? 'light' : 'dark';
  const label =
    mode === null ? strings.colorModeToDark : next === 'dark' ? strings.colorModeToDark : strings.colorModeToLight;
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
        setMode(value);
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
