import type { SandboxedCommand } from './sandbox.js';

/**
 * The limits are set by util-linux's `prlimit` (explicit units, unlike the shells' `ulimit`, whose
 * options and block sizes differ between dash, bash and busybox), and hold for everything the
 * command starts. Then a shell copies the input into the working folder, where the view gives it
 * one, and waits for the command, so that the command is not the namespace's first process (which
 * gets init's signal rules).
 */
const COPY_THEN_WAIT =
  'if [ -n "$1" ]; then mkdir -p "$2" && cp -R "$1"/. "$2"/ && cd "$2" || exit 126; fi\nshift 2\n"$@"\nexit $?';

/** The exit status of a command that the kernel ended at its CPU limit (128 + SIGXCPU), as the shell reports it. */
export const CPU_LIMIT_STATUS = 152;

/** The command line that runs `command` under its limits, copying `input.from` to `input.to` first when given. */
export function limitShellArgs(command: SandboxedCommand, input: { from: string; to: string } | undefined): string[] {
  const { limits } = command;
  const prlimit = ['prlimit', '--core=0', `--as=${limits.addressSpaceBytes}`, `--fsize=${limits.fileBytes}`];
  if (limits.processes !== undefined) prlimit.push(`--nproc=${limits.processes}`);
  if (limits.cpuSeconds !== undefined) {
    // SIGXCPU at the soft limit, SIGKILL a second later for a program that ignores it.
    const soft = Math.max(1, Math.ceil(limits.cpuSeconds));
    prlimit.push(`--cpu=${soft}:${soft + 1}`);
  }
  return [...prlimit, '--', 'sh', '-c', COPY_THEN_WAIT, 'sh', input?.from ?? '', input?.to ?? '', ...command.argv];
}
