/**
 * Watch mode's work, one piece after another: rebuilds, and the search index after the start.
 * Saves that come while a rebuild waits to start fold into it (one rebuild for a burst of saves),
 * and a rebuild that pauses before its search step is woken by a newer save, so that the newer
 * rebuild goes first and builds the index itself.
 */
export class RebuildQueue {
  private tail: Promise<void> = Promise.resolve();
  private rebuildWaiting = false;
  private wakePause: (() => void) | undefined;

  /**
   * Queues a rebuild, unless one is queued and not started yet (this change is then part of it).
   * Either way, a rebuild pausing before its search step is woken.
   */
  requestRebuild(rebuild: () => Promise<void>): void {
    this.wakePause?.();
    if (this.rebuildWaiting) return;
    this.rebuildWaiting = true;
    this.tail = this.tail.then(() => {
      this.rebuildWaiting = false;
      return rebuild();
    });
  }

  /** Runs `work` after everything queued so far. */
  enqueue(work: () => void | Promise<void>): void {
    this.tail = this.tail.then(work);
  }

  /** Whether a newer rebuild waits behind the work that is running. */
  get newerRebuildWaiting(): boolean {
    return this.rebuildWaiting;
  }

  /** For the work running: waits `ms`, or less if a newer change comes meanwhile. */
  async pause(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakePause = done;
    });
    this.wakePause = undefined;
  }

  /** Resolves once nothing is queued or running (a piece of work may queue another). */
  async idle(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.tail;
      await seen;
    } while (seen !== this.tail || this.rebuildWaiting);
  }
}
