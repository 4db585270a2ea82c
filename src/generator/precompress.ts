import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { bytesOf, sizeOf, type FileContents } from '../output/copied-file.js';
import type { SiteFiles } from '../output/write-site.js';
import { DiskCache, hashText } from '../cache/disk-cache.js';

/**
 * `.br` and `.gz` siblings of the site's larger text and wasm files, which the server sends to
 * browsers that accept them (sirv's `brotli`/`gzip`, see server/file-sender.ts) and static hosts
 * can serve as they are. Made once per content: kept in the build cache by a hash of the bytes.
 */

/** Formats that shrink under brotli and gzip; images, fonts and media are compressed already. */
const COMPRESSIBLE = /\.(?:html|css|m?js|json|map|svg|xml|txt|wasm|zip|webmanifest)$/i;
/** Below this the headers and the browser's work outweigh the bytes saved. */
const MIN_BYTES = 1024;
/** A sibling that saves less (a zip that is deflated already, say) is not written. */
const MIN_SAVING = 0.05;
/**
 * Brotli quality 5: most of brotli's gain at gzip's speed. Measured on Pyodide's 9.6 MB wasm here:
 * quality 5 gives 3.23 MB in about 6 s, 9 gives 3.10 MB in 14 s, 11 gives 2.74 MB in 147 s
 * (gzip -9: 3.59 MB in 2.5 s); every cold or `--no-cache` build would pay for the higher ones.
 */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 9;
/** Part of the cache key: entries made with other settings are not reused. */
const SETTINGS = `br${BROTLI_QUALITY}-gz${GZIP_LEVEL}-${MIN_SAVING}`;
const CACHE = 'precompressed';

const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const ENCODINGS = {
  br: (bytes: Uint8Array) =>
    brotliCompress(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  gz: (bytes: Uint8Array) => gzip(bytes, { level: GZIP_LEVEL }),
} as const;

/** The same compressions, synchronous, for pages compressed one by one as they are written. */
const SYNC_ENCODINGS = {
  br: (bytes: Uint8Array) =>
    zlib.brotliCompressSync(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  gz: (bytes: Uint8Array) => zlib.gzipSync(bytes, { level: GZIP_LEVEL }),
} as const;

export function isPrecompressible(name: string, size: number): boolean {
  return size >= MIN_BYTES && COMPRESSIBLE.test(name);
}

/** One file's sibling in one encoding, from the cache or made now; undefined when not worth it. */
async function sibling(
  bytes: Uint8Array,
  key: string,
  extension: keyof typeof ENCODINGS,
  cache: DiskCache,
): Promise<Buffer | undefined> {
  const entry = `${key}.${extension}`;
  // An empty entry records "not worth it", so that is not tried again either.
  let compressed = cache.read(CACHE, entry);
  if (compressed === undefined) {
    compressed = await ENCODINGS[extension](bytes);
    if (compressed.length > bytes.length * (1 - MIN_SAVING)) compressed = Buffer.alloc(0);
    cache.write(CACHE, entry, compressed);
  }
  return compressed.length > 0 ? compressed : undefined;
}

/**
 * Adds `name.br` and `name.gz` to `files` for every file worth compressing. The files are
 * compressed together, on libuv's threads. Cache entries this build did not use are deleted.
 */
export async function addPrecompressedSiblings(files: SiteFiles, cache: DiskCache): Promise<void> {
  const jobs: Array<Promise<void>> = [];
  for (const [name, contents] of [...files]) {
    if (!isPrecompressible(name, sizeOf(contents))) continue;
    // Pyodide's siblings come with pybook, compressed harder at install (runner/pyodide-precompressed.ts).
    const missing = (Object.keys(ENCODINGS) as Array<keyof typeof ENCODINGS>).filter(
      (extension) => !files.has(`${name}.${extension}`),
    );
    if (!missing.length) continue;
    const bytes = bytesOf(contents);
    const key = hashText(SETTINGS, bytes).slice(0, 40);
    for (const extension of missing) {
      jobs.push(
        sibling(bytes, key, extension, cache).then((compressed) => {
          if (compressed !== undefined) files.set(`${name}.${extension}`, compressed);
        }),
      );
    }
  }
  await Promise.all(jobs);
  cache.prune(CACHE);
}

/**
 * The pages that `pybook build` renders as it writes them (the `streamed` BuildMode), each
 * followed by its siblings: made here, one page at a time, so that no more pages are held in
 * memory than before. Not cached: a page changes with any change to the sidebar or its chapter.
 */
export function* withPrecompressedSiblings(
  documents: Iterable<[string, FileContents]>,
): Generator<[string, FileContents]> {
  for (const [name, contents] of documents) {
    yield [name, contents];
    if (!isPrecompressible(name, sizeOf(contents))) continue;
    const bytes = bytesOf(contents);
    for (const [extension, compress] of Object.entries(SYNC_ENCODINGS)) {
      const compressed = compress(bytes);
      if (compressed.length <= bytes.length * (1 - MIN_SAVING)) yield [`${name}.${extension}`, compressed];
    }
  }
}
