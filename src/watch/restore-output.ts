/**
 * Watch mode's output folder deleted behind its back (`rm -rf build` in another terminal): every
 * URL answered 404 until the next save. The session holds the whole site in memory, so the first
 * request that finds the folder gone writes it again, through writeSiteAtomically and its guard:
 * pybook only ever writes a folder it may replace (a missing or empty one, or one it marked).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ProtectedFolders } from '../output/guard.js';
import { MARKER_FILE } from '../output/marker.js';
import { writeSiteAtomically, type SiteFiles } from '../output/write-site.js';

/**
 * Writes `files` to `outDir` again when its marker (so the folder, or what pybook wrote in it) is
 * gone. Returns whether it did; throws what writeSiteAtomically throws (a folder someone else
 * filled in the meantime is refused, never replaced).
 */
export function restoreOutputIfGone(outDir: string, files: SiteFiles, protect: ProtectedFolders): boolean {
  // One stat per request: the marker is the first file a write makes and the last a deletion leaves.
  if (existsSync(path.join(outDir, MARKER_FILE))) return false;
  writeSiteAtomically(outDir, files, [], { protect });
  return true;
}
