/**
 * What watch mode's server tells the open tabs (src/watch/live-reload.ts sends it as server-sent
 * events, src/watch/client/live-reload.ts acts on it).
 */
export type LiveEvent =
  /**
   * Pages changed. `module`, when one page changed, is its route module's JSON (`{"page":…,"html":…}`,
   * see routeModuleJson): the tabs show it in place without fetching anything.
   */
  | { type: 'reload'; routes: string[]; module?: string }
  | { type: 'build-error'; message: string }
  | { type: 'clear' }
  /** The base path changed: tabs go to the same page under the new one, once the restarted server answers there. */
  | { type: 'moved'; from: string; to: string };
