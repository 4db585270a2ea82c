import { createHash } from 'node:crypto';
import { copyFileSync, constants, lstatSync, mkdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { bytesOf, CopiedFile, sizeOf, type FileContents } from './copied-file.js';
import type { ManifestEntry } from './manifest.js';
import { replaceFile } from '../core/replace-file.js';
import { sitePathProblem } from './site-path.js';
import { stampMatches, stampOf, type WrittenStamps } from './written-stamps.js';

/** A write or delete pybook refused, because the path would lead outside the folder or to something it did not write. */
export class OutputWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputWriteError';
  }
}

/**
 * A folder that pybook updates file by file (watch mode's output): every write and delete goes
 * through here, by site path, and stays inside the folder by construction. A name is checked (a
 * plain relative path); every folder on the way must be a real folder (a link placed there during
 * the session is refused, never written through); a file is written to a new temporary name
 * (O_EXCL) and renamed over its place; and a file is deleted only when it is the very file pybook
 * wrote (its stamp) or holds exactly the bytes pybook wrote there.
 */
export class OutputFolder {
  /** Stamps of the files written through this object. */
  readonly stamps: WrittenStamps = new Map();

  constructor(readonly root: string) {}

  /** The file's path, after checking the name and that every folder on the way is a real one (made when `create`). */
  private pathOf(name: string, create: boolean): string {
    const problem = sitePathProblem(name);
    if (problem) throw new OutputWriteError(`refusing to write ${problem} into ${this.root}`);
    const segments = name.split('/');
    let at = this.root;
    for (const segment of segments.slice(0, -1)) {
      at = path.join(at, segment);
      let stats;
      try {
        stats = lstatSync(at);
      } catch {
        if (!create) return path.join(this.root, name);
        mkdirSync(at);
        stats = lstatSync(at);
      }
      if (!stats.isDirectory()) {
        throw new OutputWriteError(
          `${at} is ${stats.isSymbolicLink() ? 'a link' : 'not a folder'}: pybook writes only into folders it made, never through a link (move it away)`,
        );
      }
    }
    return path.join(this.root, name);
  }

  write(name: string, contents: FileContents): void {
    const file = this.pathOf(name, true);
    // A new file of its own (O_EXCL never opens an existing file or follows a link), renamed over
    // the old one: the server never reads half a file, and a new inode tells its cache it changed.
    if (contents instanceof CopiedFile) {
      const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      copyFileSync(contents.source, temporary, constants.COPYFILE_EXCL);
      renameSync(temporary, file);
    } else {
      replaceFile(file, contents);
    }
    this.stamps.set(name, stampOf(file));
  }

  /**
   * Deletes a file pybook wrote: the one it stamped, or one holding `expected` (its bytes, or its
   * manifest entry). Anything else there (the user's edit, a link, a folder) stays; returns whether
   * the file went.
   */
  remove(name: string, expected?: FileContents | ManifestEntry): boolean {
    let file: string;
    try {
      file = this.pathOf(name, false);
    } catch {
      return false;
    }
    let stats;
    try {
      stats = lstatSync(file, { bigint: true });
    } catch {
      this.stamps.delete(name);
      return true; // already gone
    }
    if (!stats.isFile()) return false;
    const stamp = this.stamps.get(name);
    const proven =
      (stamp !== undefined && stampMatches(stamp, stats)) ||
      (expected !== undefined && holds(file, Number(stats.size), expected));
    if (!proven) return false;
    unlinkSync(file);
    this.stamps.delete(name);
    return true;
  }
}

/** Whether the file (of `size` bytes) holds exactly `expected`: those bytes, or the bytes a manifest entry lists. */
function holds(file: string, size: number, expected: FileContents | ManifestEntry): boolean {
  if (Array.isArray(expected))
    return size === expected[0] && createHash('sha1').update(readFileSync(file)).digest('hex') === expected[1];
  return size === sizeOf(expected) && Buffer.compare(readFileSync(file), bytesOf(expected)) === 0;
}
