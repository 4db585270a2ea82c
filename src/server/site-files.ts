import { lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';

/**
 * Finds files on disk for already-validated URL segments. The URL checks in
 * resolve-path.ts stop '..' and friends; this layer is the second wall: it
 * resolves symlinks with realpath and refuses anything whose real location is
 * not inside the site folder, is a dotfile, or is not a regular file.
 */

export interface LocatedFile {
  kind: 'file';
  realPath: string;
  stats: Stats;
}

export type LocateResult =
  | LocatedFile
  /** The URL names a folder with an index.html but lacks the trailing slash. */
  | { kind: 'directory-with-index' }
  | { kind: 'not-found'; reason: string };

type Entry = LocatedFile | { kind: 'directory' } | { kind: 'not-found'; reason: string };

/** Errors that simply mean "nothing servable here". Others (EMFILE...) propagate. */
const MISSING_FILE_CODES = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'ENAMETOOLONG', 'EACCES', 'EPERM', 'EINVAL']);

function isMissingFileError(error: unknown): boolean {
  return error instanceof Error && MISSING_FILE_CODES.has((error as NodeJS.ErrnoException).code ?? '');
}

export class SiteFiles {
  /** @param rootRealPath the site folder, already passed through realpath. */
  constructor(private readonly rootRealPath: string) {}

  locate(relativeSegments: readonly string[], trailingSlash: boolean): LocateResult {
    const candidate = path.join(this.rootRealPath, ...relativeSegments);
    if (trailingSlash || relativeSegments.length === 0) {
      return this.asFileResult(this.inspect(path.join(candidate, 'index.html')));
    }
    const entry = this.inspect(candidate);
    if (entry.kind !== 'directory') return this.asFileResult(entry);
    const index = this.inspect(path.join(candidate, 'index.html'));
    return index.kind === 'file'
      ? { kind: 'directory-with-index' }
      : { kind: 'not-found', reason: 'directory without index.html' };
  }

  /**
   * Whether something is at `relativePath` (a sibling such as `index.html.br`) that the site may
   * not send: a link out of the site folder, a socket, a folder. Nothing there is not unsafe.
   */
  isUnsafe(relativePath: string): boolean {
    const candidate = path.join(this.rootRealPath, relativePath);
    try {
      lstatSync(candidate);
    } catch {
      return false;
    }
    try {
      const realPath = realpathSync.native(candidate);
      return !this.contains(realPath) || !statSync(realPath).isFile();
    } catch {
      return true;
    }
  }

  private asFileResult(entry: Entry): LocateResult {
    return entry.kind === 'directory' ? { kind: 'not-found', reason: 'is a directory' } : entry;
  }

  private inspect(candidate: string): Entry {
    let realPath: string;
    let stats: Stats;
    try {
      // Synchronous, as sirv's own lookup is: two short system calls cost less than two trips
      // through libuv's thread pool (the load test: some 1.5 times the requests per second).
      realPath = realpathSync.native(candidate);
      if (!this.contains(realPath)) return { kind: 'not-found', reason: 'resolves outside the site folder' };
      stats = statSync(realPath);
    } catch (error) {
      if (isMissingFileError(error)) return { kind: 'not-found', reason: 'no such file' };
      throw error;
    }
    if (stats.isDirectory()) return { kind: 'directory' };
    if (!stats.isFile()) return { kind: 'not-found', reason: 'not a regular file' };
    return { kind: 'file', realPath, stats };
  }

  /** True when realPath lies strictly inside the root and no part of it is a dotfile. */
  private contains(realPath: string): boolean {
    const relative = path.relative(this.rootRealPath, realPath);
    if (relative === '' || path.isAbsolute(relative)) return false;
    return relative.split(path.sep).every((part) => part !== '..' && !part.startsWith('.'));
  }
}
