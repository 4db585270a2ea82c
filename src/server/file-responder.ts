import { createReadStream } from 'node:fs';
import type http from 'node:http';
import { pipeline } from 'node:stream/promises';
import { cacheControlFor, contentEtag, encodedEtag, isNotModified, REVALIDATE_CACHE_CONTROL } from './caching.js';
import { CompressedBodyCache, compressUncached, MIN_COMPRESSIBLE_BYTES, negotiateEncoding, type ContentEncoding } from './compression.js';
import { ContentNamedFiles } from './content-named.js';
import { FileCache, type BufferedFile, type StreamedFile } from './file-cache.js';
import { isCompressibleContentType, isHtmlContentType } from './mime.js';
import { BASE_HEADERS, isHeadRequest, sendBody, sendNotModified, type HeaderMap } from './responses.js';
import type { LocatedFile } from './site-files.js';

export type TransformHtml = (html: string, urlPath: string) => string;

const MAX_BUFFERED_FILE_BYTES = 8 * 1024 * 1024;
const MAX_FILE_CACHE_BYTES = 128 * 1024 * 1024;
const MAX_COMPRESSED_CACHE_BYTES = 64 * 1024 * 1024;

/** A body ready to send: either straight from the cache or rewritten for this request. */
interface PreparedBody {
  file: BufferedFile;
  body: Buffer;
  etag: string;
  /** False when transformHtml produced a per-request body that must not be cached. */
  cacheable: boolean;
}

/**
 * Writes a located file as an HTTP response: content negotiation, validators,
 * conditional requests, compression and the watch-mode HTML transform.
 */
export class FileResponder {
  private readonly fileCache: FileCache;
  /** Read per response, so that a rebuild's new list applies to files already in memory. */
  private readonly contentNamed: ContentNamedFiles;
  private readonly compressedBodies = new CompressedBodyCache(MAX_COMPRESSED_CACHE_BYTES);

  constructor(private readonly transformHtml: TransformHtml | undefined, rootRealPath: string) {
    this.contentNamed = new ContentNamedFiles(rootRealPath);
    this.fileCache = new FileCache({
      maxBufferedFileBytes: MAX_BUFFERED_FILE_BYTES,
      maxCacheBytes: MAX_FILE_CACHE_BYTES,
      // Transformed HTML may change with watch-mode state, so it is read fresh each time.
      shouldCache: (contentType) => transformHtml === undefined || !isHtmlContentType(contentType),
    });
  }

  /** 200 with the file, or 304 when the client's copy is current. */
  async sendFile(req: http.IncomingMessage, res: http.ServerResponse, located: LocatedFile, urlPath: string): Promise<void> {
    const file = await this.fileCache.load(located);
    if (file.kind === 'streamed') return this.streamFile(req, res, file);

    const prepared = this.prepareBody(file, urlPath);
    const encoding = this.chooseEncoding(req, prepared);
    const headers: HeaderMap = {
      ...this.representationHeaders(prepared, encoding),
      'Cache-Control': cacheControlFor(this.contentNamed.has(file.realPath)),
      ETag: encodedEtag(prepared.etag, encoding),
      'Last-Modified': file.lastModified,
    };
    if (isNotModified(req.headers, prepared.etag, file.mtimeMs)) {
      delete headers['Content-Type'];
      sendNotModified(res, headers);
      return;
    }
    sendBody(req, res, 200, headers, await this.encodeBody(prepared, encoding));
  }

  /**
   * An error page (the site's 404.html) with the given status: never
   * conditional, never long-cached. Returns false if the page cannot be used.
   */
  async sendErrorPage(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    located: LocatedFile,
    status: number,
    urlPath: string,
  ): Promise<boolean> {
    const file = await this.fileCache.load(located);
    if (file.kind !== 'buffered') return false;
    const prepared = this.prepareBody(file, urlPath);
    const encoding = this.chooseEncoding(req, prepared);
    const headers = { ...this.representationHeaders(prepared, encoding), 'Cache-Control': REVALIDATE_CACHE_CONTROL };
    sendBody(req, res, status, headers, await this.encodeBody(prepared, encoding));
    return true;
  }

  private async streamFile(req: http.IncomingMessage, res: http.ServerResponse, file: StreamedFile): Promise<void> {
    const headers: HeaderMap = { 'Cache-Control': cacheControlFor(this.contentNamed.has(file.realPath)), ETag: file.etag, 'Last-Modified': file.lastModified };
    if (isNotModified(req.headers, file.etag, file.mtimeMs)) {
      sendNotModified(res, headers);
      return;
    }
    res.writeHead(200, { ...BASE_HEADERS, ...headers, 'Content-Type': file.contentType, 'Content-Length': file.size });
    if (isHeadRequest(req)) {
      res.end();
      return;
    }
    await pipeline(createReadStream(file.realPath), res);
  }

  private prepareBody(file: BufferedFile, urlPath: string): PreparedBody {
    if (this.transformHtml === undefined || !isHtmlContentType(file.contentType)) {
      return { file, body: file.body, etag: file.etag, cacheable: true };
    }
    const body = Buffer.from(this.transformHtml(file.body.toString('utf8'), urlPath), 'utf8');
    return { file, body, etag: contentEtag(body), cacheable: false };
  }

  private chooseEncoding(req: http.IncomingMessage, prepared: PreparedBody): ContentEncoding | undefined {
    if (!isCompressibleContentType(prepared.file.contentType)) return undefined;
    if (prepared.body.length < MIN_COMPRESSIBLE_BYTES) return undefined;
    return negotiateEncoding(req.headers);
  }

  private encodeBody(prepared: PreparedBody, encoding: ContentEncoding | undefined): Promise<Buffer> {
    if (encoding === undefined) return Promise.resolve(prepared.body);
    if (!prepared.cacheable) return compressUncached(prepared.body, encoding);
    return this.compressedBodies.get(prepared.file.realPath, prepared.etag, encoding, prepared.body);
  }

  private representationHeaders(prepared: PreparedBody, encoding: ContentEncoding | undefined): HeaderMap {
    const headers: HeaderMap = { 'Content-Type': prepared.file.contentType };
    // Set even when this response is identity: the same URL may be compressed for another client.
    if (isCompressibleContentType(prepared.file.contentType)) headers['Vary'] = 'Accept-Encoding';
    if (encoding !== undefined) headers['Content-Encoding'] = encoding;
    return headers;
  }
}
