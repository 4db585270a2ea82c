import type { IncomingHttpHeaders } from 'node:http';

/**
 * The precompressed encodings the client accepts, as an Accept-Encoding header for sirv. sirv
 * looks for the words `br` and `gzip` and would send brotli to `br;q=0, gzip`, which refuses it;
 * this honours q=0 and the `*` wildcard, and leaves the choice among the rest to sirv (brotli first).
 */
export function acceptedEncodings(headers: IncomingHttpHeaders): string {
  const header = headers['accept-encoding'];
  if (header === undefined || header === '') return '';
  const qualities = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    qualities.set(name, quality === undefined ? 1 : Number(quality.slice(2)) || 0);
  }
  const wildcard = qualities.get('*') ?? 0;
  return ['br', 'gzip'].filter((encoding) => (qualities.get(encoding) ?? wildcard) > 0).join(', ');
}
