import { styleAdopter } from '../../client/core/adopted-styles.js';

/**
 * The offline feature's styles, for what only it shows (the menu's panel, the update notice):
 * adopted when it loads, so the first load's stylesheet carries none of it.
 */
const OFFLINE_CSS = `
.offline-panel h2 { margin: 0 0 0.4rem; font-size: 1rem; }
.offline-panel p { margin: 0 0 0.6rem; }
.offline-panel .offline-size { color: var(--muted); font-size: var(--text-xs); }
.offline-panel .offline-actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.4rem 0 0.2rem; }
.offline-panel button { padding: 0.4rem 0.75rem; border-radius: var(--rs); font: 600 var(--text-sm)/1.2 var(--sans); cursor: pointer; }
.offline-locale { display: grid; gap: 0.35rem; }
.offline-locale > p[role="status"]:empty { display: none; }
.offline-panel progress { width: 100%; height: 0.6rem; accent-color: var(--link); }
.offline-panel .offline-saved { color: var(--strong); font-weight: 600; }
.offline-panel .offline-saved::before { content: "✓ "; color: #2e8b57; }
.offline-panel .offline-failed { color: #b3261e; }
[data-theme="dark"] .offline-panel .offline-failed { color: #f49a9a; }
.offline-panel .offline-others { margin: 0.8rem 0 0; padding: 0.6rem 0 0; border-top: 1px solid var(--line); }
.offline-panel .offline-others ul { margin: 0; padding: 0; list-style: none; }
.offline-panel .offline-others li { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.4rem; padding: 0.2rem 0; }
.offline-others .offline-locale { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; }
.offline-panel .offline-others h3 { margin: 0 0 0.3rem; font-size: var(--text-xs); color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
.offline-update { position: fixed; z-index: 200; left: 50%; bottom: 1rem; transform: translateX(-50%); display: flex; align-items: center; gap: 0.75rem; max-width: calc(100vw - 2rem); padding: 0.6rem 0.75rem 0.6rem 1rem; border: 1px solid var(--line); border-radius: var(--r); background: var(--pop); color: var(--fg); box-shadow: var(--shadow); font-size: var(--text-sm); }
.offline-update p { margin: 0; }
.offline-update button { padding: 0.4rem 0.8rem; border-radius: var(--rs); font: 600 var(--text-sm)/1.2 var(--sans); cursor: pointer; }
`;

/** Adds the offline feature's styles to the document (once). */
export const adoptOfflineStyles = styleAdopter(OFFLINE_CSS);
