import fs from 'node:fs/promises';
import { contentEtag, httpDate, statEtag } from './caching.js';
import { ByteBudgetLruCache } from './lru-cache.js';
import { contentTypeFor } from './mime.js';
import type { LocatedFile } from './site-files.js';

/**
 * Loads files together with their response metadata and keeps them in memory,
 * keyed by real path and checked against size/mtime/inode on every request so
 * a rebuild while `pybook serve` runs is picked up immediately.
 */

interface FileMetadata {
  realPath: string;
  contentType: string;
  etag: string;
  lastModified: string;
  mtimeMs: number;
  size: number;
  inode: number;
}

/** Read into memory: small enough to cache, compress and hash. */
export interface BufferedFile extends FileMetadata {
  kind: 'buffered';
  body: Buffer;
}

/** Too large to hold in memory; sent as a stream, uncompressed. */
export interface StreamedFile extends FileMetadata {
  kind: 'streamed';
}

export type LoadedFile = BufferedFile | StreamedFile;

export interface FileCacheOptions {
  /** Files above this size are streamed instead of buffered. */
  maxBufferedFileBytes: number;
  /** Total memory for cached file bodies. */
  maxCacheBytes: number;
  /** Lets the server opt HTML out of caching when it is rewritten per request. */
  shouldCache: (contentType: string) => boolean;
}

function isUnchanged(cached: FileMetadata, file: LocatedFile): boolean {
  return cached.size === file.stats.size && cached.mtimeMs === file.stats.mtimeMs && cached.inode === file.stats.ino;
}

export class FileCache {
  private readonly cache: ByteBudgetLruCache<BufferedFile>;

  constructor(private readonly options: FileCacheOptions) {
    this.cache = new ByteBudgetLruCache<BufferedFile>(options.maxCacheBytes, (file) => file.body.length);
  }

  async load(file: LocatedFile): Promise<LoadedFile> {
    const cached = this.cache.get(file.realPath);
    if (cached !== undefined && isUnchanged(cached, file)) return cached;

    const { stats, realPath } = file;
    const contentType = contentTypeFor(realPath);
    const common = {
      realPath,
      contentType,
      lastModified: httpDate(stats.mtimeMs),
      mtimeMs: stats.mtimeMs,
      size: stats.size,
      inode: stats.ino,
    };
    if (stats.size > this.options.maxBufferedFileBytes) {
      return { kind: 'streamed', ...common, etag: statEtag(stats.size, stats.mtimeMs) };
    }

    const body = await fs.readFile(realPath);
    // The file may have changed between stat and read; describe what was read.
    const loaded: BufferedFile = { kind: 'buffered', ...common, size: body.length, body, etag: contentEtag(body) };
    if (this.options.shouldCache(contentType)) this.cache.set(realPath, loaded);
    return loaded;
  }
}
