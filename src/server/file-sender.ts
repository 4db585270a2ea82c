import type http from 'node:http';
import sirv from 'sirv';
import { acceptedEncodings } from './accepted-encodings.js';
import { rangeForSirv } from './byte-range.js';
import { ContentNamedFiles } from './content-named.js';
import { contentTypeOf } from './content-type.js';
import { BASE_HEADERS } from './responses.js';
import type { SiteFiles } from './site-files.js';

/** Files pybook named by their content: a new build gives them a new name. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const REVALIDATE_CACHE_CONTROL = 'no-cache';

/**
 * Sends one file of the site, given by its path relative to the site folder (`/` separators).
 * Returns false, having sent nothing, when the file is not there (any more).
 */
export type FileSender = (req: http.IncomingMessage, res: http.ServerResponse, relativePath: string) => boolean;

/**
 * sirv finds the file again from a URL path, and decodes it with decodeURI: `%` is escaped, the
 * rest as encodeURI does. (Names with `?` or `#`, which it takes for a query or a fragment, are
 * not found: a 404, never another file.)
 */
const urlPathOf = (relativePath: string) => `/${encodeURI(relativePath)}`;

/**
 * Sends files with sirv: Content-Length, Last-Modified, ETag and 304, byte ranges (206), and the
 * `.br`/`.gz` sibling that the build wrote (see generator/precompress.ts) when the client accepts
 * it. The site folder is read on every request (`dev`), never listed once at the start: a
 * rebuild swaps it while `serve` runs, and watch mode writes into it. What sirv leaves to us is
 * set around it: the content type with its charset, Cache-Control by the build's list of
 * content-named files, nosniff, and the ranges sirv would get wrong (see byte-range.ts).
 */
export function createFileSender(rootRealPath: string, siteFiles: SiteFiles): FileSender {
  const contentNamed = new ContentNamedFiles(rootRealPath);
  const serveFile = sirv(rootRealPath, {
    dev: true,
    etag: true,
    brotli: true,
    gzip: true,
    // The request handler has found the file already: no `.html` guessing, no index lookup.
    extensions: [],
    setHeaders(res, pathname, stats) {
      // Only for a 200 or 206, before sirv reads the Range: the file is chosen, its stats known.
      const { headers } = res.req;
      const ifRange = headers['if-range'];
      const range = rangeForSirv(headers.range, typeof ifRange === 'string' ? ifRange : undefined, stats);
      if (range === undefined) delete headers.range;
      else headers.range = range;
      res.removeHeader('ETag');
      res.setHeader('Content-Type', contentTypeOf(pathname));
      res.setHeader('Accept-Ranges', 'bytes');
    },
  });

  return (req, res, relativePath) => {
    for (const [name, value] of Object.entries(BASE_HEADERS)) res.setHeader(name, value);
    res.setHeader('Cache-Control', contentNamed.has(relativePath) ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL);
    res.setHeader('Vary', 'Accept-Encoding');
    // sirv answers 304 with no headers, where RFC 9110 wants the ETag: a 304 means If-None-Match
    // was the current tag, so it is that tag (setHeaders takes it off again for a 200).
    const ifNoneMatch = req.headers['if-none-match'];
    // "*" matches any current representation (RFC 9110, 13.1.2): the file is there, so it is unchanged.
    if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim() === '*')) {
      res.statusCode = 304;
      res.end();
      return true;
    }
    if (ifNoneMatch !== undefined) res.setHeader('ETag', ifNoneMatch);
    // A sibling sirv would send (index.html.br) must pass the same containment as the file it
    // stands for: one that leads out of the site folder, or is not a regular file, is not offered.
    req.headers['accept-encoding'] = acceptedEncodings(req.headers)
      .split(', ')
      .filter(
        (encoding) => encoding !== '' && !siteFiles.isUnsafe(`${relativePath}.${encoding === 'gzip' ? 'gz' : 'br'}`),
      )
      .join(', ');
    // sirv pipes a read stream into the response without listening for its errors: a file that
    // is gone (a rebuild) or cannot be opened after sirv's stat would throw out of the process.
    res.once('pipe', (source) => source.once('error', () => res.destroy()));
    // sirv reads the URL only while it is called (it answers synchronously): the request's own is
    // put back for the log lines that follow.
    const url = req.url;
    req.url = urlPathOf(relativePath);
    let found = true;
    try {
      serveFile(req, res, () => {
        found = false;
      });
    } finally {
      req.url = url;
    }
    return found;
  };
}
