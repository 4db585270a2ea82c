/**
 * Named moments of a sandbox's start and run (performance.mark, prefixed "pybook:"), so that
 * bench/runner-trace.ts can read from a browser trace where a run's time goes, across the page,
 * the sandbox and its worker. A mark costs microseconds and nothing reads them in the page.
 */
export function mark(step: string): void {
  performance.mark(`pybook:${step}`);
}
