import type http from 'node:http';

/**
 * Small helpers that write complete responses. Every response carries
 * nosniff so browsers never reinterpret a file as another type.
 */

export type HeaderMap = Record<string, string | number>;

export const BASE_HEADERS: Readonly<HeaderMap> = { 'X-Content-Type-Options': 'nosniff' };

export function isHeadRequest(req: http.IncomingMessage): boolean {
  return req.method === 'HEAD';
}

/** Writes status, headers and (unless HEAD) the body, with an exact Content-Length. */
export function sendBody(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  headers: HeaderMap,
  body: Buffer,
): void {
  res.writeHead(status, { ...BASE_HEADERS, ...headers, 'Content-Length': body.length });
  res.end(isHeadRequest(req) ? undefined : body);
}

export function sendPlainText(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  text: string,
  headers: HeaderMap = {},
): void {
  const body = Buffer.from(`${text}\n`, 'utf8');
  sendBody(
    req,
    res,
    status,
    { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
    body,
  );
}

export function sendRedirect(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: 301 | 302,
  location: string,
): void {
  // Redirects are cheap to recompute; keep them out of caches so a changed basePath takes effect.
  sendPlainText(req, res, status, `Redirecting to ${location}`, { Location: location });
}

export function sendNotModified(res: http.ServerResponse, headers: HeaderMap): void {
  res.writeHead(304, { ...BASE_HEADERS, ...headers });
  res.end();
}

/**
 * Request lines are attacker-controlled; escape control characters and cap
 * the length so a log line stays one readable line.
 */
export function describeRequest(req: http.IncomingMessage): string {
  const url = req.url ?? '';
  const shown = url.length > 200 ? `${url.slice(0, 200)}... (${url.length} chars)` : url;
  const method = (req.method ?? '?').slice(0, 20);
  return `${method} ${JSON.stringify(shown).slice(1, -1)}`;
}
