import type { IncomingMessage, ServerResponse } from 'node:http';
import { WORKER_FILE } from '../shared/offline-data.js';

/**
 * `pybook watch` serves no service worker, whatever its output folder holds: a worker there would
 * show pages the next save has changed. A browser that kept one from a `pybook serve` of the same
 * address asks for it again, gets nothing, and the worker removes itself when it sees a page
 * without the build's id (see worker/service-worker.ts); the page's script also unregisters it
 * (src/watch/client/live-reload.ts).
 * Returns true when it answered the request.
 */
export function refuseWorker(req: IncomingMessage, res: ServerResponse, basePath: string): boolean {
  if (req.url?.split('?')[0] !== basePath + WORKER_FILE) return false;
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end('pybook watch serves no service worker\n');
  return true;
}
