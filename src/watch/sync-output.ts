import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SiteFiles } from '../output/write-site.js';

// The client bundle's files are the same objects from build to build: no need to compare bytes.
const same = (a: string | Uint8Array, b: string | Uint8Array) =>
  a === b || (typeof a === 'string' && typeof b === 'string' ? a === b : Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0);

/**
 * Brings the output folder from the previous build's files to the new ones by writing only
 * what changed and deleting what disappeared. A file that did not change but is missing on disk
 * (the folder was deleted while watching, say) is written again. Returns the names that changed.
 */
export function syncOutput(outDir: string, previous: SiteFiles, next: SiteFiles): string[] {
  const changed: string[] = [];
  for (const [name, contents] of next) {
    const before = previous.get(name);
    const file = path.join(outDir, name);
    if (before !== undefined && same(before, contents) && existsSync(file)) continue;
    mkdirSync(path.dirname(file), { recursive: true });
    // Write then rename: the server never reads half a file, and the new inode tells its file
    // cache that the file changed even when size and (coarse) mtime stay the same.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, contents);
    renameSync(temporary, file);
    changed.push(name);
  }
  for (const name of previous.keys()) {
    if (next.has(name)) continue;
    const file = path.join(outDir, name);
    if (existsSync(file)) rmSync(file);
    changed.push(name);
  }
  return changed;
}
