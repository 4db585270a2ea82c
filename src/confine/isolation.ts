import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { limitShellArgs } from './limit-shell.js';
import { sandboxCommandLine, type SandboxedCommand } from './sandbox.js';

/**
 * How this machine lets the check confine an example, found once by trying (not by guessing
 * from the user id or the kernel version):
 * - 'sandbox': bubblewrap gives every example everything the check promises (see PROTECTIONS);
 * - 'namespaces': `unshare` gives it its own PID and network namespaces, but it sees (and, with
 *   the user's rights, may change) the whole file system;
 * - 'user-namespaces': the same inside a user namespace, where a non-root user may create them;
 * - 'process-group': nothing of the kind; the example runs in its own process group.
 * Anything short of 'sandbox' runs only with `--allow-unconfined` (see assertConfined).
 */
export type IsolationKind = 'sandbox' | 'namespaces' | 'user-namespaces' | 'process-group';

/** What the check promises an example, one line each: an isolation lists those it cannot give. */
export const PROTECTIONS = {
  pid: 'its own PID namespace (everything it starts ends with it, even a process that left its session)',
  network: 'no network (its own network namespace, whose only interface is its own loopback)',
  files:
    "a read-only view of the system: only its own working folder and a private /tmp are writable, and neither your home folder nor /run, /var or other users' files are there",
  sockets: 'no host sockets (the Docker daemon, the SSH agent, X11)',
  user: 'an unprivileged user (nobody) when the check runs as root',
} as const;

export type Protection = keyof typeof PROTECTIONS;

export interface Isolation {
  kind: IsolationKind;
  /** The protections this isolation lacks (empty for 'sandbox'). */
  missing: Protection[];
  /** Why the stronger isolations were not used, for the message that names what is missing. */
  reason?: string;
  /** One line for the check's output when the isolation is weaker than promised. */
  warning?: string;
  /**
   * The command line that runs a command confined. Where there is no view of the file system
   * ('sandbox' makes one), it starts in its input folder on the host (the caller's cwd).
   */
  commandLine(command: SandboxedCommand): string[];
}

const UNSHARE = ['--pid', '--fork', '--kill-child', '--mount-proc', '--net'];
/** `ip` may be missing: the loopback then stays down and only local servers fail, with a clear error. */
const LOOPBACK_UP = ['sh', '-c', 'ip link set lo up >/dev/null 2>&1; exec "$@"', 'sh'];

function unshareIsolation(kind: 'namespaces' | 'user-namespaces', reason: string): Isolation {
  const prefix =
    kind === 'namespaces' ? ['unshare', ...UNSHARE, '--'] : ['unshare', '--user', '--map-root-user', ...UNSHARE, '--'];
  const missing: Protection[] = ['files', 'sockets', ...(isRoot() ? ['user' as const] : [])];
  return {
    kind,
    missing,
    reason,
    warning: `warning: examples run in their own PID and network namespaces only: they lack ${missing.map((m) => PROTECTIONS[m]).join('; ')} (${reason})`,
    // The example's folder on the host is its working folder: there is no view to copy it into.
    commandLine: (command) => [...prefix, ...LOOPBACK_UP, ...limitShellArgs(command, undefined)],
  };
}

/** The fallback where no namespace can be made (the tests use it directly too). */
export function processGroupIsolation(reason = 'no namespace can be made on this machine'): Isolation {
  const missing: Protection[] = ['pid', 'network', 'files', 'sockets', ...(isRoot() ? ['user' as const] : [])];
  return {
    kind: 'process-group',
    missing,
    reason,
    warning: `warning: examples run in a process group only: they can reach the network, and a process that leaves its session may outlive its example; they lack ${missing.map((m) => PROTECTIONS[m]).join('; ')} (${reason})`,
    commandLine: (command) => limitShellArgs(command, undefined),
  };
}

const isRoot = () => process.getuid?.() === 0;

/** The processes and threads a user has now (RLIMIT_NPROC counts them all, for the real user id). */
function tasksOfUser(uid: number): number {
  let tasks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) === uid)
        tasks += Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
    } catch {
      /* it ended while we looked */
    }
  }
  return tasks;
}

/** How many processes and threads an example may start: this many beyond what its user runs already. */
const PROCESS_ROOM = 512;
let processLimitOf: number | undefined;

/**
 * RLIMIT_NPROC for an example. Root's examples run as nobody in the sandbox (and root itself is
 * never held to the limit); anyone else's run as themselves, so the limit leaves room for what
 * the user already runs.
 */
export function processLimit(isolation: Isolation): number | undefined {
  if (!existsSync('/proc/self/status')) return undefined;
  if (isRoot())
    return isolation.kind === 'sandbox' ? (processLimitOf ??= tasksOfUser(65534) + PROCESS_ROOM) : undefined;
  return (processLimitOf ??= tasksOfUser(process.getuid!()) + PROCESS_ROOM);
}

/** The bubblewrap sandbox: every protection. */
function sandboxIsolation(): Isolation {
  return { kind: 'sandbox', missing: [], commandLine: (command) => sandboxCommandLine(command, isRoot()) };
}

/** Runs `argv` to see whether it works here; the first line of its error otherwise. */
function tryRun(argv: string[], cwd: string): string | undefined {
  const result = spawnSync(argv[0], argv.slice(1), {
    cwd,
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  if (result.error)
    return (result.error as NodeJS.ErrnoException).code === 'ENOENT'
      ? `${argv[0]} is not installed`
      : result.error.message;
  if (result.status === 0 && result.stdout.trim() === 'confined') return undefined;
  return `${path.basename(argv[0])} failed: ${(result.stderr || result.stdout).trim().split('\n')[0] || `exit status ${result.status}`}`;
}

let probed: Isolation | undefined;

/** Tries each way once (a few milliseconds each) and keeps the strongest that runs a command. */
export function probeIsolation(): Isolation {
  if (probed) return probed;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'pybook-probe-'));
  try {
    const probe: SandboxedCommand = {
      argv: ['echo', 'confined'],
      readable: [],
      limits: { addressSpaceBytes: 1024 ** 3, fileBytes: 1024 ** 2, tmpBytes: 1024 ** 2 },
    };
    const sandbox = sandboxIsolation();
    const sandboxError = tryRun(sandbox.commandLine(probe), scratch);
    if (!sandboxError) return (probed = sandbox);
    const reason = `${sandboxError}; bubblewrap (Debian and Ubuntu: apt install bubblewrap) gives the full sandbox where user namespaces are allowed`;
    for (const kind of ['namespaces', 'user-namespaces'] as const) {
      const candidate = unshareIsolation(kind, reason);
      if (!tryRun(candidate.commandLine(probe), scratch)) return (probed = candidate);
    }
    return (probed = processGroupIsolation(`${reason}; unshare cannot make PID and network namespaces either`));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Refused: the check will not run examples with less than its full confinement unless told to. */
export class UnconfinedError extends Error {
  constructor(isolation: Isolation) {
    super(
      [
        `pybook check will not run the book's examples here: it cannot give them ${isolation.missing.map((m) => PROTECTIONS[m]).join('; ')}.`,
        `Why: ${isolation.reason ?? 'unknown'}.`,
        'Run the check where bubblewrap works, or pass --allow-unconfined to run the examples with only what this machine allows.',
      ].join('\n'),
    );
    this.name = 'UnconfinedError';
  }
}

/** Throws UnconfinedError when the isolation lacks a protection and the caller did not allow that. */
export function assertConfined(isolation: Isolation, allowUnconfined: boolean): void {
  if (isolation.missing.length > 0 && !allowUnconfined) throw new UnconfinedError(isolation);
}
