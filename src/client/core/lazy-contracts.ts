import type { ComponentType, RefObject } from 'react';
import type { SiteData } from '../../shared/model/page.js';

/**
 * What the lazily loaded entries offer (client/core/lazy-modules.ts loads them by name). Declared
 * here, below the code that loads them and the code that implements them, so that neither
 * imports the other (search/client/ui.ts and runner/client/ui.ts are checked against these).
 */

export interface SearchDropdownProps {
  query: string;
  /** The navbar input: the dropdown listens to its arrow keys and Enter. */
  inputRef: RefObject<HTMLInputElement | null>;
  /** Whether the results are shown (the box has focus, Escape not pressed). */
  open: boolean;
  onClose: () => void;
  /** A result was opened: the box empties. */
  onChoose: () => void;
}

/** The search interface (`search-ui`). */
export interface SearchUiModule {
  SearchDropdown: ComponentType<SearchDropdownProps>;
  SearchPageResults: ComponentType;
  /** Marks the words a reader searched for on the page they opened from the results. */
  highlightTyped(typed: string, removeLabel: string, site: SiteData): Promise<void>;
}

/** Reading offline (`offline`, src/offline/client/offline-ui.ts): the service worker's registration and the navbar menu's panel. */
export interface OfflineUiModule {
  /** Registers the book's service worker and keeps the menu's state (once per page). */
  startOffline(site: SiteData): void;
  OfflinePanel: ComponentType;
}

/** The Run / Edit interface (`runner`). */
export interface RunnerModule {
  /** Starts loading the block's runtime (a sign of intent). */
  prepareRunner(button: HTMLButtonElement): Promise<void>;
  /** Puts back the examples the reader edited on this page. */
  restoreEdits(root?: ParentNode): Promise<void>;
  /** A click on Run, Stop, Check, Edit or Reset; `action` is what the button said when pressed. */
  onRunnerButton(button: HTMLButtonElement, action: string): Promise<void>;
}

/** The reader's progress in the page (`progress`). */
export interface ProgressModule {
  /** Shows the reader's progress on the page just rendered (sidebar, chapter, home), and keeps it current. */
  showProgress(): Promise<void>;
}
