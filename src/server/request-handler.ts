import type http from 'node:http';
import path from 'node:path';
import { compressWhatFollows } from './compress-on-the-fly.js';
import { createFileSender } from './file-sender.js';
import { isHtmlFile, sendHtmlPage, type TransformHtml } from './html-page.js';
import { formatUrlPath, parseRequestPath, sanitizeQueryForHeader } from './resolve-path.js';
import { routeRequest } from './route.js';
import { describeRequest, sendPlainText, sendRedirect } from './responses.js';
import { SiteFiles } from './site-files.js';

/** Everything the handler needs, already validated and normalised by static-server.ts. */
export interface RequestHandlerConfig {
  /** Whether a request's Host header names this server (see allowed-hosts.ts). */
  allowHost: (hostHeader: string | undefined) => boolean;
  rootRealPath: string;
  baseSegments: string[];
  localeDirs: string[];
  log: (line: string) => void;
  handleExtra: ((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | undefined;
  transformHtml: TransformHtml | undefined;
}

/**
 * Dispatches one request: extra handler (watch mode's event stream), method check, URL
 * validation, base path and clean-URL redirects, the file lookup that keeps every request inside
 * the site folder, then the file (sirv, see file-sender.ts) or the localised 404 page.
 */
export function createRequestHandler(config: RequestHandlerConfig): http.RequestListener {
  const siteFiles = new SiteFiles(config.rootRealPath);
  const sendFile = createFileSender(config.rootRealPath, siteFiles);

  /** The site's own 404 page, in the visitor's language when the URL is under a locale folder. */
  async function sendNotFound(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    relativeSegments: readonly string[],
    reason: string,
  ): Promise<void> {
    config.log(`404 ${describeRequest(req)} (${reason})`);
    const locale = relativeSegments[0];
    const pages =
      locale !== undefined && config.localeDirs.includes(locale)
        ? [[locale, '404.html'], ['404.html']]
        : [['404.html']];
    const urlPath = formatUrlPath([...config.baseSegments, ...relativeSegments], false);
    for (const page of pages) {
      const located = siteFiles.locate(page, false);
      if (located.kind === 'file') {
        compressWhatFollows(req, res);
        await sendHtmlPage(req, res, located.realPath, 404, urlPath, config.transformHtml);
        return;
      }
    }
    sendPlainText(req, res, 404, 'Page Not Found');
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    // Before anything is read or streamed (the live-reload events included): a page of another
    // site that rebound its name to this address gets nothing.
    if (!config.allowHost(req.headers.host)) {
      config.log(`421 ${describeRequest(req)} (Host ${JSON.stringify(req.headers.host ?? '')} is not this server's)`);
      sendPlainText(req, res, 421, 'Misdirected Request');
      return;
    }
    if (config.handleExtra?.(req, res) === true) return;

    if (req.method !== 'GET' && req.method !== 'HEAD') {
      config.log(`405 ${describeRequest(req)}`);
      sendPlainText(req, res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
      return;
    }

    const parsed = parseRequestPath(req.url ?? '');
    if (!parsed.ok) {
      if (parsed.status === 404) return await sendNotFound(req, res, [], parsed.reason);
      config.log(`400 ${describeRequest(req)} (${parsed.reason})`);
      sendPlainText(req, res, 400, 'Bad Request');
      return;
    }

    const route = routeRequest(parsed, config.baseSegments);
    if (route.kind === 'redirect') {
      sendRedirect(req, res, route.status, route.location);
      return;
    }

    const located = siteFiles.locate(route.relativeSegments, route.trailingSlash);
    switch (located.kind) {
      case 'directory-with-index': {
        const folderPath = formatUrlPath([...config.baseSegments, ...route.relativeSegments], true);
        sendRedirect(req, res, 301, folderPath + sanitizeQueryForHeader(route.query));
        return;
      }
      case 'not-found':
        return await sendNotFound(req, res, route.relativeSegments, located.reason);
      case 'file': {
        compressWhatFollows(req, res);
        const urlPath = formatUrlPath(parsed.segments, parsed.trailingSlash);
        if (config.transformHtml !== undefined && isHtmlFile(located.realPath)) {
          return await sendHtmlPage(req, res, located.realPath, 200, urlPath, config.transformHtml);
        }
        const relativePath = path.relative(config.rootRealPath, located.realPath).split(path.sep).join('/');
        // Found a moment ago but gone now (a rebuild): the 404 page, as for any missing file.
        if (!sendFile(req, res, relativePath))
          return await sendNotFound(req, res, route.relativeSegments, 'removed while serving');
        return;
      }
    }
  }

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A client that hangs up mid-stream is routine, not a server problem.
      if (res.destroyed || (error as NodeJS.ErrnoException | undefined)?.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
      config.log(`500 ${describeRequest(req)} (${error instanceof Error ? error.message : String(error)})`);
      if (res.headersSent) res.destroy();
      else sendPlainText(req, res, 500, 'Internal Server Error');
    });
  };
}
