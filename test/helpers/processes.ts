import { readdirSync, readFileSync } from 'node:fs';

/** The pids of running processes whose command line contains `marker` (found from outside any namespace). */
export function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) pids.push(Number(entry));
    } catch {
      /* it ended while we looked */
    }
  }
  return pids;
}
