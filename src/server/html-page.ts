import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type http from 'node:http';
import { REVALIDATE_CACHE_CONTROL } from './file-sender.js';
import { sendBody, sendNotModified } from './responses.js';

/** Watch mode's rewrite of every page it serves (the live-reload script's page fingerprint). */
export type TransformHtml = (html: string, urlPath: string) => string;

const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

export function isHtmlFile(filePath: string): boolean {
  return /\.html?$/i.test(filePath);
}

/**
 * Sends a page that is not a plain copy of its file: the site's 404 page (with status 404, which
 * sirv cannot send) and, in watch mode, every page with `transform` applied. Pages are small and
 * read fresh each time, since watch mode's transform changes with its state. A 200 carries a
 * strong ETag of the bytes sent, so an unchanged page revalidates with 304.
 */
export async function sendHtmlPage(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  file: string,
  status: 200 | 404,
  urlPath: string,
  transform: TransformHtml | undefined,
): Promise<void> {
  const html = await fs.readFile(file, 'utf8');
  const body = Buffer.from(transform === undefined ? html : transform(html, urlPath), 'utf8');
  const headers = { 'Content-Type': HTML_CONTENT_TYPE, 'Cache-Control': REVALIDATE_CACHE_CONTROL };
  if (status === 404) return sendBody(req, res, 404, headers, body);
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  if (req.headers['if-none-match'] === etag)
    return sendNotModified(res, { ETag: etag, 'Cache-Control': REVALIDATE_CACHE_CONTROL });
  sendBody(req, res, 200, { ...headers, ETag: etag }, body);
}
