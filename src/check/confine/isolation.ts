import { spawnSync } from 'node:child_process';

/**
 * How this machine lets the check confine an example, found once by trying (not by guessing
 * from the user id or the kernel version):
 * - 'namespaces': its own PID namespace (ending its first process ends every process in it, even
 *   one that left its session) and its own network namespace (a loopback interface that is down);
 * - 'user-namespaces': the same inside a user namespace, where a non-root user may create them;
 * - 'process-group': neither works; the example runs in its own process group, which a process
 *   that calls setsid() leaves, and it can reach the network.
 */
export type IsolationKind = 'namespaces' | 'user-namespaces' | 'process-group';

export interface Isolation {
  kind: IsolationKind;
  /** The command line that the example's command is appended to. */
  prefix: string[];
  /** One line for the check's output when the isolation is weaker than promised. */
  warning?: string;
}

const NAMESPACES = ['--pid', '--fork', '--kill-child', '--mount-proc', '--net'];

const candidates: Array<{ kind: IsolationKind; prefix: string[] }> = [
  { kind: 'namespaces', prefix: ['unshare', ...NAMESPACES, '--'] },
  { kind: 'user-namespaces', prefix: ['unshare', '--user', '--map-root-user', ...NAMESPACES, '--'] },
];

const FALLBACK_WARNING = 'warning: examples run in a process group only: they can reach the network, and a process that leaves its session may outlive its example (`unshare --pid --net` cannot make namespaces on this machine)';

let probed: Isolation | undefined;

/** Tries each way once (a few milliseconds each) and keeps the first that runs a command. */
export function probeIsolation(): Isolation {
  if (probed) return probed;
  for (const { kind, prefix } of candidates) {
    const result = spawnSync(prefix[0], [...prefix.slice(1), 'true'], { stdio: 'ignore', timeout: 10_000 });
    if (result.status === 0) return (probed = { kind, prefix });
  }
  return (probed = processGroupIsolation());
}

/** The fallback: what the check does where no namespace can be made (the tests use it directly too). */
export function processGroupIsolation(): Isolation {
  return { kind: 'process-group', prefix: [], warning: FALLBACK_WARNING };
}
