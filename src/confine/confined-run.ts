import { spawn } from 'node:child_process';
import type { Isolation } from './isolation.js';
import { CPU_LIMIT_STATUS } from './limit-shell.js';
import type { SandboxedCommand } from './sandbox.js';

export interface Limits {
  /**
   * Wall-clock time the example (and everything it starts) may run: a backstop for what waits
   * or sleeps; what computes is held to its CPU time (the command's limits.cpuSeconds), which a
   * busy machine does not change.
   */
  timeoutMs: number;
  /** Bytes of standard output and error together that are kept; past them the example is ended. */
  outputBytes: number;
}

/** How a run ended: on its own, or ended by the check at a limit. */
export type Ending = 'exited' | 'timeout' | 'cpu-limit' | 'output-limit';

export interface ConfinedResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ending: Ending;
}

export interface ConfinedRun {
  result: Promise<ConfinedResult>;
  /** Ends the whole tree now (SIGKILL); the result then resolves soon after. A bound function. */
  kill: () => void;
}

/** How long an exited example's background processes may keep its output open. */
const EXIT_GRACE_MS = 1_000;
/** How long to wait for the pipes after the tree was killed: a process outside it may hold them. */
const PIPE_WAIT_MS = 1_000;

/**
 * Runs a command confined: in the isolation probed for this machine (see isolation.ts), with the
 * command's own limits (address space, CPU time, file size, processes), a wall-clock backstop and
 * an output cap. At a limit the whole tree is killed and the pipes are no longer waited for.
 * `env` is all the environment it gets: nothing of the check's is passed on.
 */
export function runConfined(
  command: SandboxedCommand,
  options: { env: Record<string, string>; limits: Limits; isolation: Isolation },
): ConfinedRun {
  const { limits, isolation } = options;
  const argv = isolation.commandLine(command);
  const child = spawn(argv[0], argv.slice(1), {
    // Without a view of the file system, the input folder is the working folder.
    cwd: command.input,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: killing the group reaches the namespace's first process (or, without
    // namespaces, everything that stayed in the group).
    detached: true,
  });
  const killTree = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  };

  const result = new Promise<ConfinedResult>((resolve, reject) => {
    const kept = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    let bytes = 0;
    let ending: Ending = 'exited';
    let exitCode: number | null = null;
    let finished = false;
    let pipeTimer: NodeJS.Timeout | undefined;

    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      clearTimeout(pipeTimer);
      child.stdout.destroy();
      child.stderr.destroy();
      killTree(); // whatever it started in the background and left running
      // The kernel ended it at its CPU limit (SIGXCPU), which its shell reports as this status.
      const how = ending === 'exited' && exitCode === CPU_LIMIT_STATUS ? 'cpu-limit' : ending;
      resolve({
        code: exitCode,
        stdout: Buffer.concat(kept.stdout).toString('utf8'),
        stderr: Buffer.concat(kept.stderr).toString('utf8'),
        ending: how,
      });
    };
    // A timer that fired after the event loop was held up (a busy machine, a synchronous probe)
    // runs before the loop reads the pipes: finishing in the check phase that follows lets output
    // that had already arrived be read first.
    const finishSoon = () => setImmediate(finish);
    const endAt = (why: Ending) => {
      if (finished || ending !== 'exited') return;
      ending = why;
      killTree();
      pipeTimer = setTimeout(finishSoon, PIPE_WAIT_MS);
    };
    const timer = setTimeout(() => endAt('timeout'), limits.timeoutMs);

    const keep = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      if (ending !== 'exited') return;
      const room = limits.outputBytes - bytes;
      bytes += chunk.length;
      kept[stream].push(room >= chunk.length ? chunk : chunk.subarray(0, Math.max(0, room)));
      if (bytes > limits.outputBytes) endAt('output-limit');
    };
    child.stdout.on('data', keep('stdout'));
    child.stderr.on('data', keep('stderr'));
    child.on('error', (error) => {
      finished = true;
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      exitCode = code;
      // Its output is read to the end ('close'), unless something it left behind holds the pipes.
      if (ending === 'exited') pipeTimer = setTimeout(finishSoon, EXIT_GRACE_MS);
    });
    child.on('close', finish);
  });
  return { result, kill: killTree };
}
