import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { isInsideFolder } from '../core/paths.js';
import { limitShellArgs } from './limit-shell.js';

/** The limits of one confined command; they hold for every process it starts. */
export interface ProcessLimits {
  /** Address space of each process (RLIMIT_AS). */
  addressSpaceBytes: number;
  /** CPU time of each process (RLIMIT_CPU); none for a long-lived host, which the check measures itself. */
  cpuSeconds?: number;
  /** Size of any one file it writes (RLIMIT_FSIZE). */
  fileBytes: number;
  /** Processes and threads of the user it runs as (RLIMIT_NPROC); none to leave the user's limit. */
  processes?: number;
  /** Size of its private /tmp (and /dev/shm), which holds its working folder: the disk it may fill. */
  tmpBytes: number;
}

/** A command to run confined, and what of the host it needs. */
export interface SandboxedCommand {
  argv: string[];
  /** A host folder whose files are copied into the command's working folder before it starts (read-only to it). */
  input?: string;
  /** Host paths the command must read (its interpreter and libraries), shown to it read-only at the same path. */
  readable: string[];
  limits: ProcessLimits;
}

/** Where the sandbox shows the input folder, and where its copy (the working folder) is made. */
export const SANDBOX_INPUT = '/run/pybook-input';
export const SANDBOX_WORK = '/tmp/work';

/**
 * The system folders every sandbox sees, read-only: programs and libraries, and /etc (whose
 * secrets only root may read, and the sandbox never runs as root). Nothing else of the host is
 * there unless a command names it in `readable`: not /home or /root, not /run or /var (where the
 * host's sockets live), not /tmp, not /mnt or /media.
 */
const SYSTEM_FOLDERS = ['/usr', '/etc', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** The user a root check runs examples as. */
const NOBODY = 65534;

/** Resolved, de-duplicated paths to show, leaving out those a system folder already shows. */
function extraPaths(readable: string[]): string[] {
  const real = new Set<string>();
  for (const item of readable) {
    if (!existsSync(item)) continue;
    const resolved = realpathSync(item);
    if (SYSTEM_FOLDERS.some((folder) => resolved === folder || isInsideFolder(resolved, folder))) continue;
    real.add(resolved);
  }
  // A folder inside another shown folder is shown with it.
  return [...real].sort().filter((item, _, all) => !all.some((other) => isInsideFolder(item, other)));
}

/**
 * The bubblewrap command line for `command`: its own PID, network, IPC and UTS namespaces; a view
 * of the file system made of the system folders and what the command must read, all read-only, a
 * private /tmp and /dev/shm of a fixed size, and nothing else; a minimal environment (the caller's
 * `env`, nothing inherited); run as nobody when the check runs as root; ended with the check
 * (--die-with-parent) and in a session of its own (no TIOCSTI into the check's terminal).
 */
export function sandboxCommandLine(command: SandboxedCommand, asRoot: boolean): string[] {
  const args = [
    'bwrap',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--die-with-parent',
    '--new-session',
  ];
  // A non-root user makes the namespaces in a user namespace of its own; root drops to nobody
  // inside the sandbox instead, which needs these two capabilities until setpriv has used them.
  if (asRoot) args.push('--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID');
  else args.push('--unshare-user', '--disable-userns');
  for (const folder of SYSTEM_FOLDERS) {
    let stats;
    try {
      stats = lstatSync(folder);
    } catch {
      continue;
    }
    if (stats.isSymbolicLink()) args.push('--symlink', readlinkSync(folder), folder);
    else if (stats.isDirectory()) args.push('--ro-bind', folder, folder);
  }
  args.push('--proc', '/proc', '--dev', '/dev');
  const size = String(command.limits.tmpBytes);
  args.push(
    '--size',
    size,
    '--perms',
    '1777',
    '--tmpfs',
    '/tmp',
    '--size',
    size,
    '--perms',
    '1777',
    '--tmpfs',
    '/dev/shm',
  );
  // The folders above a shown path are made for it, readable by anyone (bubblewrap would make them 0700).
  const made = new Set(['/', '/tmp', '/dev', '/proc', ...SYSTEM_FOLDERS]);
  const show = (host: string, at: string) => {
    const parents: string[] = [];
    for (let parent = path.dirname(at); !made.has(parent); parent = path.dirname(parent)) parents.unshift(parent);
    for (const parent of parents) {
      args.push('--perms', '0755', '--dir', parent);
      made.add(parent);
    }
    args.push('--ro-bind', host, at);
    made.add(at);
  };
  for (const item of extraPaths(command.readable)) show(item, item);
  if (command.input) show(command.input, SANDBOX_INPUT);
  // The root of the view is bubblewrap's own tmpfs: read-only too, so nothing can fill it.
  args.push('--remount-ro', '/', '--chdir', '/tmp', '--');
  if (asRoot)
    args.push(
      'setpriv',
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--',
    );
  return [...args, ...limitShellArgs(command, command.input ? { from: SANDBOX_INPUT, to: SANDBOX_WORK } : undefined)];
}
