import type http from 'node:http';
import compression from 'compression';

/**
 * Compresses a response that has no `.br`/`.gz` sibling from the build (a page, a route module,
 * the site data; `pybook build` writes siblings only of Pyodide's files unless --precompress), as
 * the static hosts a book is published on do: the `compression` middleware, brotli or gzip by
 * the request's Accept-Encoding. It leaves alone what is encoded already (a sibling sirv chose),
 * HEAD, bodies under 1 KB and types that do not shrink (its own rules), and byte ranges: a 206 is
 * a slice of the file's bytes, which an encoding would change.
 */
const middleware = compression({
  filter: (req, res) => req.headers.range === undefined && compression.filter(req, res),
});

/** Hooks `res` so that what is written to it next is compressed when that is worth it. */
export function compressWhatFollows(req: http.IncomingMessage, res: http.ServerResponse): void {
  // The middleware wraps the response's writeHead, write and end, then calls next at once.
  middleware(req as Parameters<typeof middleware>[0], res as Parameters<typeof middleware>[1], () => {});
}
