/**
 * Everything a running check must undo however it ends: the example process trees it started,
 * their temporary folders, the hosts of the reader's runtimes. A check owns one CleanupGroup;
 * `close()` in its `finally` runs what is left, and while any group is open, SIGINT, SIGTERM,
 * SIGHUP and the process's exit (an uncaught exception included) run them too. Cleanups are
 * synchronous (SIGKILL, rmSync) so that they can run in an 'exit' handler.
 */
type Cleanup = () => void;

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const open = new Set<CleanupGroup>();

export class CleanupGroup {
  private cleanups = new Set<Cleanup>();

  constructor() {
    if (open.size === 0) installHandlers();
    open.add(this);
  }

  /** Registers a cleanup; call the returned function once it is no longer needed. */
  add(cleanup: Cleanup): () => void {
    this.cleanups.add(cleanup);
    return () => {
      this.cleanups.delete(cleanup);
    };
  }

  /** Runs every registered cleanup (each once), leaving the group open. */
  runAll(): void {
    // Last registered first, like nested finally blocks: a run's process tree before its folder.
    const cleanups = [...this.cleanups].reverse();
    this.cleanups.clear();
    for (const cleanup of cleanups) {
      try {
        cleanup();
      } catch {
        /* one failed cleanup must not keep the others from running */
      }
    }
  }

  /** Runs what is left and stops listening for signals once no group is open. */
  close(): void {
    this.runAll();
    if (open.delete(this) && open.size === 0) removeHandlers();
  }
}

function runEveryGroup(): void {
  for (const group of open) group.runAll();
}

/** Cleans up, then lets the signal do what it would have done (Node's default: end the process). */
function onSignal(signal: NodeJS.Signals): void {
  runEveryGroup();
  removeHandlers();
  open.clear();
  process.kill(process.pid, signal);
}

function installHandlers(): void {
  for (const signal of SIGNALS) process.on(signal, onSignal);
  process.on('exit', runEveryGroup);
}

function removeHandlers(): void {
  for (const signal of SIGNALS) process.off(signal, onSignal);
  process.off('exit', runEveryGroup);
}
