import { createContext, useContext } from 'react';
import type { InterfaceStrings } from '../../shared/i18n/types.js';

/** What the chapter components may read while the build renders a chapter's content. */
export interface ContentContextValue {
  /** The locale's interface strings (labels, default titles). */
  strings: InterfaceStrings;
  /**
   * Keys of the examples that passed in the reader's runtimes (the browser-check record, see
   * src/runner/browser-check-file.ts): a code block offers Run only when its key is here.
   */
  runnable: ReadonlySet<string>;
}

export const ContentContext = createContext<ContentContextValue | null>(null);

/** The content context; chapter components are rendered only inside renderContentHtml's provider. */
export function useContent(): ContentContextValue {
  const value = useContext(ContentContext);
  if (!value) throw new Error('a chapter component was rendered outside renderContentHtml (no ContentContext)');
  return value;
}
