import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bytesOf, sizeOf, writeContents, type FileContents } from '../output/copied-file.js';
import { BOOKKEEPING, LiveManifest } from '../output/manifest.js';
import { MARKER_FILE } from '../output/marker.js';
import type { SiteFiles } from '../output/write-site.js';

/**
 * The manifest of each folder this process updates in place (see LiveManifest): every sync lists
 * the site's files in it again, so the folder stays one that pybook may replace.
 */
const manifests = new Map<string, LiveManifest>();
function recordManifest(outDir: string, files: SiteFiles): void {
  const key = path.resolve(outDir);
  let manifest = manifests.get(key);
  if (!manifest) manifests.set(key, (manifest = new LiveManifest(key)));
  manifest.write(files);
}

// The client bundle's files are the same objects from build to build: no need to compare bytes.
const same = (a: FileContents, b: FileContents) =>
  a === b || (typeof a === 'string' && typeof b === 'string' ? a === b : sizeOf(a) === sizeOf(b) && Buffer.compare(bytesOf(a), bytesOf(b)) === 0);

/** Writes a file so that the server never reads half of it (see syncOutput). */
function replaceFile(file: string, contents: FileContents): void {
  mkdirSync(path.dirname(file), { recursive: true });
  // Write then rename: the server never reads half a file, and the new inode tells its file
  // cache that the file changed even when size and (coarse) mtime stay the same.
  const temporary = `${file}.${process.pid}.tmp`;
  writeContents(temporary, contents);
  renameSync(temporary, file);
}

/**
 * Brings an output folder that pybook wrote earlier (the caller checks that its manifest proves
 * every file in it) to a site's files by writing only the files whose bytes differ on disk, and
 * deleting the files the site does not have. Watch mode starts with it: after the last session or build most files are the same, and
 * reading them back is several times cheaper than writing the whole site again (megabytes of
 * runtime for the examples, among others). `contentNamed` (the marker's list) are compared by size.
 * Returns the names written or deleted.
 */
export function syncOutputWithDisk(outDir: string, next: SiteFiles, contentNamed: ReadonlySet<string> = new Set()): string[] {
  const changed: string[] = [];
  // What the site does not have goes first, so that a link where a folder of the site belongs is
  // gone before anything is written, never written through (a Dirent describes the link itself).
  const sweep = (folder: string, prefix: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const name = prefix + entry.name;
      if (!prefix && BOOKKEEPING.has(name)) continue;
      if (entry.isDirectory()) sweep(path.join(folder, entry.name), `${name}/`);
      else if (!next.has(name)) {
        rmSync(path.join(folder, entry.name), { force: true });
        changed.push(name);
      }
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
      if (stats.isFile() && stats.size === sizeOf(contents) && (contentNamed.has(name) || Buffer.compare(readFileSync(file), bytesOf(contents)) === 0)) continue;
      // A folder in the way (the rename below replaces a file or a link itself).
      if (stats.isDirectory()) rmSync(file, { recursive: true, force: true });
    } catch {
      // missing (or unreadable): written below
    }
    replaceFile(file, contents);
    changed.push(name);
  }
  recordManifest(outDir, next);
  return changed;
}

/**
 * Brings the output folder from the previous build's files to the new ones by writing only
 * what changed and deleting what disappeared. A file that did not change but is missing on disk
 * (the folder was deleted while watching, say) is written again. Returns the names that changed.
 */
export function syncOutput(outDir: string, previous: SiteFiles, next: SiteFiles): string[] {
  const changed: string[] = [];
  for (const [name, contents] of next) {
    if (name === MARKER_FILE) continue;
    const before = previous.get(name);
    const file = path.join(outDir, name);
    if (before !== undefined && same(before, contents) && existsSync(file)) continue;
    replaceFile(file, contents);
    changed.push(name);
  }
  for (const name of previous.keys()) {
    if (next.has(name)) continue;
    const file = path.join(outDir, name);
    if (existsSync(file)) rmSync(file);
    changed.push(name);
  }
  recordManifest(outDir, next);
  return changed;
}
