/**
 * The offline feature's lazily loaded entry (`offline` in the client bundle's lazy entries, loaded by
 * the navbar's OfflineMenu (src/theme/client/layout/) once the page is idle or the menu opens): the worker's registration and the menu's panel.
 */
import type { OfflineUiModule } from '../../client/core/lazy-contracts.js';
import { startOffline } from './controller.js';
import { OfflinePanel } from './OfflinePanel.js';

export { startOffline, OfflinePanel };

// Checked against what the navbar's OfflineMenu expects of this module.
export const offlineUi: OfflineUiModule = { startOffline, OfflinePanel };
