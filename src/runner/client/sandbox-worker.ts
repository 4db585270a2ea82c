/**
 * The JavaScript sandbox's worker: one run per worker (a fresh realm each time, like a new
 * `node` process). The page starts it from an opaque-origin iframe (sandbox-host.ts), so the
 * program has no DOM, no cookies, no storage of the site and no network; `pybook check` loads the
 * same bundle into a fresh worker thread under Node.
 *
 * Messages in: {type: 'load'} (answered {type: 'ready'}), then {type: 'run', source, limits}
 * (pybook check sends only {source}). Out: {type: 'stdout' | 'stderr', text} in batches,
 * {type: 'truncated'} past the limits, and {type: 'exit', status}.
 */
import { reportUncaught, runSandboxed } from '../shared/js-sandbox.js';
import { OutputBatch, type OutputLimits } from './output-batch.js';
import { takePostMessage } from './worker-channel.js';

interface SandboxScope {
  postMessage(message: unknown): void;
  addEventListener?(
    type: string,
    listener: (event: { reason?: unknown; error?: unknown; preventDefault?(): void }) => void,
  ): void;
  onmessage: ((event: { data: { type?: string; source?: string; limits?: OutputLimits } }) => void) | null;
}

const scope = globalThis as unknown as SandboxScope;
const post = takePostMessage(scope);
// A Worker reports rejections nothing handled as an event; pybook check's host calls this hook.
Object.defineProperty(scope, '__pybookReportUncaught', { value: reportUncaught });
scope.addEventListener?.('unhandledrejection', (event) => {
  event.preventDefault?.();
  reportUncaught(event.reason);
});
// An error thrown where the sandbox cannot catch it (a queueMicrotask callback, say) ends the run as in Node.
scope.addEventListener?.('error', (event) => {
  event.preventDefault?.();
  reportUncaught(event.error);
});

let started = false;
scope.onmessage = (event) => {
  const data = event.data;
  if (data.type === 'load') {
    post({ type: 'ready' });
    return;
  }
  if (started || (data.type !== undefined && data.type !== 'run')) return;
  started = true;
  const output = new OutputBatch(post, data.limits);
  void runSandboxed(String(data.source), {
    stdout: (text) => output.write('stdout', text),
    stderr: (text) => output.write('stderr', text),
  }).then((status) => {
    output.flush();
    post({ type: 'exit', status });
  });
};
