import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';
import { ByteBudgetLruCache } from './lru-cache.js';

export type ContentEncoding = 'br' | 'gzip';

/** Below this size the headers and CPU cost outweigh the saved bytes. */
export const MIN_COMPRESSIBLE_BYTES = 1024;

const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Picks the encoding to send: brotli first (smaller), then gzip, honouring
 * q=0 exclusions and the '*' wildcard of the Accept-Encoding header.
 */
export function negotiateEncoding(headers: IncomingHttpHeaders): ContentEncoding | undefined {
  const header = headers['accept-encoding'];
  if (header === undefined || header === '') return undefined;
  const qualities = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...parameters] = part.split(';').map((piece) => piece.trim());
    if (name === undefined || name === '') continue;
    const qualityParameter = parameters.find((parameter) => parameter.startsWith('q='));
    const quality = qualityParameter === undefined ? 1 : Number(qualityParameter.slice(2));
    qualities.set(name, Number.isNaN(quality) ? 0 : quality);
  }
  const wildcard = qualities.get('*') ?? 0;
  const accepts = (encoding: string): boolean => (qualities.get(encoding) ?? wildcard) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return undefined;
}

/**
 * Brotli quality 5 compresses close to gzip -9 sizes at gzip speed; quality 11
 * would take seconds on a large bundle and stall the first request for it.
 */
function compress(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  if (encoding === 'br') {
    return brotliCompress(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
  }
  return gzip(body, { level: 6 });
}

/**
 * Compresses bodies once per (path, etag, encoding) and keeps the result.
 * Concurrent requests for the same cold file share one compression job.
 */
export class CompressedBodyCache {
  private readonly cache: ByteBudgetLruCache<Buffer>;
  private readonly inFlight = new Map<string, Promise<Buffer>>();

  constructor(maxBytes: number) {
    this.cache = new ByteBudgetLruCache<Buffer>(maxBytes, (buffer) => buffer.length);
  }

  async get(filePath: string, etag: string, encoding: ContentEncoding, body: Buffer): Promise<Buffer> {
    const key = `${filePath}\u0000${etag}\u0000${encoding}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const pending = this.inFlight.get(key);
    if (pending !== undefined) return pending;
    const job = compress(body, encoding).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, job);
    const compressed = await job;
    this.cache.set(key, compressed);
    return compressed;
  }
}

/** For bodies that are never cached (HTML transformed per request in watch mode). */
export function compressUncached(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  return compress(body, encoding);
}
