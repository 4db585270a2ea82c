/**
 * esbuild's JavaScript API runs the bundler as a service process, started on the first call and
 * left running for the next. A one-shot command (build, export, check) stops it before it returns,
 * and waits until Node has reaped it: nothing of the command outlives it, and the service's CPU
 * is counted in the command's own (`time`, CI's accounting), as it was not while it outlived us.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long the service may take to end after it is told to (it ends within milliseconds). */
const EXIT_WAIT_MS = 5_000;

/** Our child processes that are esbuild (Linux's /proc; elsewhere none are seen, and none are waited for). */
function esbuildChildren(): number[] {
  let pids: number[] = [];
  try {
    for (const task of readdirSync('/proc/self/task'))
      pids = pids.concat(
        readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number),
      );
  } catch {
    return [];
  }
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'esbuild';
    } catch {
      return false; // ended meanwhile
    }
  });
}

/** Stops esbuild's service if this process started one, and returns once it has ended and been reaped. */
export async function stopEsbuildService(): Promise<void> {
  if (!esbuildChildren().length) return; // never started: no need to load esbuild to say so
  const { stop } = await import('esbuild');
  await stop();
  // stop() kills the process without waiting for it; Node reaps it (on SIGCHLD) while this loop runs.
  const deadline = Date.now() + EXIT_WAIT_MS;
  while (esbuildChildren().length && Date.now() < deadline) await sleep(10);
}
