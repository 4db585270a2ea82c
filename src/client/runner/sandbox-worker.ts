/**
 * The JavaScript sandbox's worker: one run per worker (a fresh realm each time, like a new
 * `node` process). The page starts it from an opaque-origin iframe, so the program has no DOM,
 * no cookies and no storage of the site; `pybook check` loads the same bundle into a `vm`
 * context under Node. Messages: in {source}; out {type: 'stdout' | 'stderr', text} and
 * {type: 'exit', status}.
 */
import { reportUncaught, runSandboxed } from '../../runner/js-sandbox.js';

interface SandboxScope {
  postMessage(message: unknown): void;
  addEventListener?(type: string, listener: (event: { reason?: unknown; error?: unknown; preventDefault?(): void }) => void): void;
  onmessage: ((event: { data: { source: string } }) => void) | null;
}

const scope = globalThis as unknown as SandboxScope;
// A Worker reports rejections nothing handled as an event; pybook check's vm host calls this hook.
Object.defineProperty(scope, '__pybookReportUncaught', { value: reportUncaught });
scope.addEventListener?.('unhandledrejection', (event) => { event.preventDefault?.(); reportUncaught(event.reason); });
// An error thrown where the sandbox cannot catch it (a queueMicrotask callback, say) ends the run as in Node.
scope.addEventListener?.('error', (event) => { event.preventDefault?.(); reportUncaught(event.error); });

let started = false;
scope.onmessage = (event) => {
  if (started) return;
  started = true;
  void runSandboxed(String(event.data.source), {
    stdout: (text) => scope.postMessage({ type: 'stdout', text }),
    stderr: (text) => scope.postMessage({ type: 'stderr', text }),
  }).then((status) => scope.postMessage({ type: 'exit', status }));
};
