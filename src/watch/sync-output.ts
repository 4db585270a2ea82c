import { existsSync, lstatSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { bytesOf, sizeOf, type FileContents } from '../output/copied-file.js';
import { BOOKKEEPING, LiveManifest, manifestOf, type ManifestEntry } from '../output/manifest.js';
import { MARKER_FILE } from '../output/marker.js';
import { OutputFolder } from '../output/output-folder.js';
import type { SiteFiles } from '../output/write-site.js';

/**
 * Each folder this process updates in place: its writer (every write and delete goes through it,
 * see OutputFolder) and its manifest (see LiveManifest), which every sync lists the site's files
 * in again, so the folder stays one that pybook may replace.
 */
const folders = new Map<string, { writer: OutputFolder; manifest: LiveManifest }>();
function folderOf(outDir: string): { writer: OutputFolder; manifest: LiveManifest } {
  const key = path.resolve(outDir);
  let folder = folders.get(key);
  if (!folder) folders.set(key, (folder = { writer: new OutputFolder(key), manifest: new LiveManifest(key) }));
  return folder;
}

// The client bundle's files are the same objects from build to build: no need to compare bytes.
const same = (a: FileContents, b: FileContents) =>
  a === b ||
  (typeof a === 'string' && typeof b === 'string'
    ? a === b
    : sizeOf(a) === sizeOf(b) && Buffer.compare(bytesOf(a), bytesOf(b)) === 0);

/**
 * Brings an output folder that pybook wrote earlier to a site's files by writing only the files
 * whose bytes differ on disk, and deleting the files the site does not have, when its manifest
 * proves them pybook's (the rest stays, and is returned in `left`). Watch mode starts with it:
 * after the last session or build most files are the same, and reading them back is several times
 * cheaper than writing the whole site again (megabytes of runtime for the examples, among others).
 * `contentNamed` (the marker's list) are compared by size. Returns the names written or deleted.
 */
export function syncOutputWithDisk(
  outDir: string,
  next: SiteFiles,
  contentNamed: ReadonlySet<string> = new Set(),
): string[] {
  const { writer, manifest } = folderOf(outDir);
  const listed = new Map<string, ManifestEntry>(Object.entries(manifestOf(outDir)?.files ?? {}));
  const changed: string[] = [];
  // What the site does not have goes first, so that a link where a folder of the site belongs is
  // gone before anything is written, never written through (a Dirent describes the link itself).
  const sweep = (folder: string, prefix: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const name = prefix + entry.name;
      if (!prefix && BOOKKEEPING.has(name)) continue;
      if (entry.isDirectory()) sweep(path.join(folder, entry.name), `${name}/`);
      else if (entry.isSymbolicLink() && !next.has(name)) {
        unlinkSync(path.join(folder, entry.name)); // the link itself, never what it names
        changed.push(name);
      } else if (!next.has(name) && writer.remove(name, listed.get(name))) changed.push(name);
    }
  };
  sweep(outDir, '');
  for (const [name, contents] of next) {
    if (name === MARKER_FILE) continue;
    const file = path.join(outDir, name);
    try {
      const stats = lstatSync(file);
      // A file named by its content (the client bundle, Pyodide's versioned folder) is the same
      // file if it has the same size: not read back.
      if (
        stats.isFile() &&
        stats.size === sizeOf(contents) &&
        (contentNamed.has(name) || Buffer.compare(readFileSync(file), bytesOf(contents)) === 0)
      )
        continue;
    } catch {
      // missing (or unreadable): written below
    }
    writer.write(name, contents);
    changed.push(name);
  }
  manifest.write(next);
  return changed;
}

/**
 * Brings the output folder from the previous build's files to the new ones by writing only
 * what changed and deleting what disappeared (when it is still what pybook wrote there). A file
 * that did not change but is missing on disk (the folder was deleted while watching, say) is
 * written again. Returns the names that changed.
 */
export function syncOutput(outDir: string, previous: SiteFiles, next: SiteFiles): string[] {
  const { writer, manifest } = folderOf(outDir);
  const changed: string[] = [];
  for (const [name, contents] of next) {
    if (name === MARKER_FILE) continue;
    const before = previous.get(name);
    if (before !== undefined && same(before, contents) && existsSync(path.join(outDir, name))) continue;
    writer.write(name, contents);
    changed.push(name);
  }
  for (const [name, contents] of previous) {
    if (next.has(name) || name === MARKER_FILE) continue;
    writer.remove(name, contents);
    changed.push(name);
  }
  manifest.write(next);
  return changed;
}
