/** A browser trace (CDP Tracing) around an action, shared by the bench's trace readers. */
import type { Browser, CDPSession } from 'playwright-core';

export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
}

/** Every event of the given categories, in every process of the browser, while `action` runs. */
export async function traced(
  browser: Browser,
  categories: string[],
  action: () => Promise<void>,
): Promise<TraceEvent[]> {
  const cdp: CDPSession = await browser.newBrowserCDPSession();
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => {
    events.push(...(value as unknown as TraceEvent[]));
  });
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: categories }, transferMode: 'ReportEvents' });
  try {
    await action();
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
  }
  return events;
}

/**
 * The CommitLoad of `url`: its pid is the page's renderer (the browser's own UI renders and runs
 * scripts in another one), its ts when the page's document began.
 */
export function pageCommit(events: readonly TraceEvent[], url: string): TraceEvent | undefined {
  return events.find((e) => e.name === 'CommitLoad' && (e.args?.data as { url?: string } | undefined)?.url === url);
}

/**
 * The complete events (ph 'X') of the page's renderer main thread from its CommitLoad on: the
 * thread where style, layout, paint and the page's scripts run. Empty when the trace holds no
 * CommitLoad of `url`.
 */
export function pageMainThread(events: readonly TraceEvent[], url: string): TraceEvent[] {
  const commit = pageCommit(events, url);
  const main =
    commit &&
    events.find(
      (e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === commit.pid && e.args?.name === 'CrRendererMain',
    );
  if (!commit || !main) return [];
  return events.filter((e) => e.ph === 'X' && e.pid === commit.pid && e.tid === main.tid && e.ts >= commit.ts);
}
