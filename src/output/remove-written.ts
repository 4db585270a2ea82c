import { readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { BOOKKEEPING, foreignFilesIn, type ManifestEntry } from './manifest.js';
import type { WrittenStamps } from './written-stamps.js';

/**
 * Deletes what pybook wrote into `dir`, and nothing else: the files the walk found there and its
 * manifest (or `listed`, a killed build's journal) proves pybook wrote, then the folders left empty,
 * then the bookkeeping files and `dir` itself once nothing else is in it. Never a recursive delete,
 * and never a name read from a file: only names the walk found. A file that someone put there, or
 * changed, stays where it is, with the folders that hold it. A corrupt manifest proves nothing.
 * Returns what was left behind (empty when `dir` is gone).
 */
export function removeWrittenFiles(
  dir: string,
  listed?: { files: ReadonlyMap<string, ManifestEntry>; mayBeShort?: string },
  stamps?: WrittenStamps,
): string[] {
  const check = foreignFilesIn(dir, listed, stamps);
  if (check.corrupt) return [path.relative(dir, check.corrupt.file), ...check.foreign];
  for (const name of check.proven) {
    try {
      unlinkSync(path.join(dir, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR')
        throw error;
    }
  }
  removeEmptyFolders(dir);
  if (check.foreign.length > 0) return check.foreign;
  for (const name of BOOKKEEPING) {
    try {
      unlinkSync(path.join(dir, name));
    } catch {
      // not there
    }
  }
  try {
    rmdirSync(dir);
  } catch {
    // something appeared meanwhile: it stays
  }
  return [];
}

/** Removes the folders below `dir` that are empty (deepest first); a folder that holds anything stays. */
function removeEmptyFolders(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const folder = path.join(dir, entry.name);
    removeEmptyFolders(folder);
    try {
      rmdirSync(folder);
    } catch {
      // not empty: something foreign is in it
    }
  }
}
