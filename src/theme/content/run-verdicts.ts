import { createContext } from 'react';

/**
 * Keys of the examples that passed in the reader's runtimes (the browser-check record, see
 * src/runner/browser-check-file.ts). The build provides it while rendering chapter content; a
 * code block offers Run only when its key is here.
 */
export const RunVerdictsContext = createContext<ReadonlySet<string>>(new Set());
