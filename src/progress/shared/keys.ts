/**
 * Where the reader's data lives in localStorage: under a prefix of the site's base path, so that
 * two books on one origin keep their readers' work apart. After each page render the content
 * behaviour (client/core/content-behaviour.ts) uses only these names, to know whether there is
 * work to put back; the store (progress/client/store.ts) is loaded when there is.
 */
export const storeScope = (basePath: string) => `pybook${basePath}`;

export const codeKey = (basePath: string, slug: string) => `${storeScope(basePath)}code/${slug}`;
export const droppedKey = (basePath: string, slug: string) => `${storeScope(basePath)}dropped/${slug}`;
export const lastChapterKey = (basePath: string) => `${storeScope(basePath)}last`;
export const exercisesKey = (basePath: string) => `${storeScope(basePath)}exercises`;

/** The event (on window) the store sends when this tab changed the reader's data. */
export const LEARNER_CHANGE = 'pybook-learner-change';
