import { WatchSession, type WatchOptions } from '../watch/watch-session.js';
import { closeOnSignals } from './serve.js';

export type WatchCommandOptions = WatchOptions;
export { WatchSession };

/** Starts a watch session (see watch/watch-session.ts); resolves once the site is served. */
export function startWatch(options: WatchCommandOptions, log?: (line: string) => void): Promise<WatchSession> {
  return WatchSession.start(options, log);
}

export async function runWatch(options: WatchCommandOptions): Promise<void> {
  // The command counts from the start of the process: what the author waits for.
  const session = await startWatch({ ...options, startedAt: 0 });
  closeOnSignals(
    () => session.server,
    () => session.close(),
  );
}
