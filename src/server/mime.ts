import path from 'node:path';

/** Content types by lower-case file extension (without the dot). */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  cjs: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  webmanifest: 'application/manifest+json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  svg: 'image/svg+xml; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  py: 'text/x-python; charset=utf-8',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  eot: 'application/vnd.ms-fontobject',
  wasm: 'application/wasm',
  pdf: 'application/pdf',
  zip: 'application/zip',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
};

/** Unknown extensions are served as opaque bytes; nosniff stops browsers guessing. */
const FALLBACK_CONTENT_TYPE = 'application/octet-stream';

export function contentTypeFor(filePath: string): string {
  const extension = path.extname(filePath).slice(1).toLowerCase();
  return CONTENT_TYPES[extension] ?? FALLBACK_CONTENT_TYPE;
}

export function isHtmlContentType(contentType: string): boolean {
  return contentType.startsWith('text/html');
}

/**
 * Text formats (and wasm) shrink a lot under gzip/brotli; images and fonts are
 * already compressed, so compressing them only burns CPU.
 */
export function isCompressibleContentType(contentType: string): boolean {
  const mediaType = contentType.split(';', 1)[0]!.trim();
  return (
    mediaType.startsWith('text/') ||
    mediaType === 'image/svg+xml' ||
    mediaType === 'application/wasm' ||
    mediaType === 'application/vnd.ms-fontobject' ||
    mediaType === 'font/ttf' ||
    mediaType === 'font/otf' ||
    /^application\/(?:[\w.+-]+\+)?(?:json|xml)$/.test(mediaType)
  );
}
