import { useEffect, useState, type ComponentType } from 'react';
import { loadLazyModule } from '../../../client/core/lazy-modules.js';
import type { OfflineUiModule } from '../../../client/core/lazy-contracts.js';
import type { SiteData } from '../../../shared/model/page.js';

type Panel = ComponentType;

let loading: Promise<OfflineUiModule> | undefined;
/** The `offline` entry, loaded once (a failed load is tried again on the next call). */
function loadOfflineUi(site: SiteData): Promise<OfflineUiModule> {
  const asset = site.lazyModules.offline;
  if (!asset) return Promise.reject(new Error('this site has no offline module'));
  loading ??= loadLazyModule<OfflineUiModule>(asset);
  loading.catch(() => (loading = undefined));
  return loading;
}

/** A device with an arrow into it: keep the book on this device. */
const OfflineIcon = () => (
  <svg width={20} height={20} viewBox="0 0 24 24" aria-hidden focusable={false}>
    <path
      fill="currentColor"
      d="M11 3a1 1 0 0 1 2 0v8.6l2.3-2.3a1 1 0 0 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 1.4-1.4l2.3 2.3V3zM4 14a1 1 0 0 1 1 1v3a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-3a1 1 0 1 1 2 0v3a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3v-3a1 1 0 0 1 1-1z"
    />
  </svg>
);

/**
 * "Read offline" in the navbar (its feature in src/offline/): a menu whose panel (OfflinePanel, loaded when it is
 * first opened) offers to keep the book in the page's language on this device. Once the page is
 * idle, it also starts the offline feature (controller.ts: the service worker), which is why it
 * renders on every page of a book that has the feature, and nothing on one that has not.
 */
export function OfflineMenu({ site }: { site: SiteData }) {
  const [panel, setPanel] = useState<{ Panel: Panel } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!site.offline) return;
    const start = () =>
      void loadOfflineUi(site).then(
        (m) => m.startOffline(site),
        () => {},
      );
    if (window.requestIdleCallback) {
      const id = window.requestIdleCallback(start, { timeout: 5000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(start, 1000);
    return () => window.clearTimeout(id);
  }, [site]);
  if (!site.offline) return null;
  const strings = site.strings.offline;
  const load = () => {
    setFailed(false);
    loadOfflineUi(site).then(
      (m) => setPanel({ Panel: m.OfflinePanel }),
      () => setFailed(true),
    );
  };
  return (
    <details
      className="dropdown offline-menu"
      onToggle={(event) => {
        if (event.currentTarget.open && !panel) load();
      }}
    >
      <summary className="navbar-icon-button" aria-label={strings.menu} title={strings.menu}>
        {/* In a span: the dropdown turns its summary's last icon (a chevron elsewhere) when it opens. */}
        <span className="offline-menu-icon">
          <OfflineIcon />
        </span>
      </summary>
      <div className="dropdown-menu">
        {panel ? (
          <panel.Panel />
        ) : failed ? (
          <button type="button" className="button button-secondary" onClick={load}>
            {site.strings.chunkRetry}
          </button>
        ) : (
          <p role="status">{strings.preparing}</p>
        )}
      </div>
    </details>
  );
}
