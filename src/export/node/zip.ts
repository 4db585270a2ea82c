import { ZipFile } from 'yazl';

/** One entry of a zip file, in the order given. */
export interface ZipEntry {
  name: string;
  data: Buffer | string;
  /** Stored as is (EPUB's mimetype must be), else deflated. */
  store?: boolean;
}

/**
 * A zip file that is the same bytes for the same entries: the order given, one fixed time for
 * every entry (DOS time only: no extended timestamp field, which EPUB's mimetype entry may not
 * carry), and fixed permissions. yazl writes it (sizes and CRCs known up front: no data descriptors).
 */
export function zipBytes(entries: ZipEntry[], mtime: Date): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of entries) {
    zip.addBuffer(typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data, entry.name, {
      mtime,
      mode: 0o100644,
      compress: !entry.store,
      forceDosTimestamp: true,
      ...(entry.store ? {} : { compressionLevel: 9 }),
    });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
