import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { BookError } from '../core/errors.js';
import { isInsideFolder } from '../core/paths.js';
import { MARKER_FILE } from './marker.js';

/** One file of the static folders: its path in the site ('img/cover.svg') and the real file to read. */
interface StaticFile {
  sitePath: string;
  source: string;
}

const where = (file: string) => ({ file: path.relative(process.cwd(), file) });

/**
 * The real path of a file the site publishes (a static file, a fixture): a link must resolve, and
 * resolve inside the project (`root`), so nothing outside it (/etc/shadow, /proc/self/environ)
 * can reach the site through a link.
 */
export function resolveInsideProject(source: string, root: string | undefined, what = 'static file'): string {
  if (!lstatSync(source).isSymbolicLink()) return source;
  let real: string;
  try {
    real = realpathSync(source);
  } catch {
    throw new BookError(`this ${what} is a link to nothing (a dangling symbolic link)`, where(source));
  }
  if (root && !isInsideFolder(real, realpathSync(root))) {
    throw new BookError(
      `this ${what} is a link to ${real}, outside the project: ${what}s must live inside the project`,
      where(source),
    );
  }
  return real;
}

/**
 * A folder the site publishes from (the static folder, the fixtures), itself: a link is followed
 * only when it resolves inside the project, as for the files in it (`ln -s ~/.ssh book/static`
 * publishes nothing).
 */
export function assertFolderInsideProject(folder: string, root: string | undefined, what: string): void {
  if (!root || !existsSync(folder)) return;
  const real = realpathSync(folder);
  const realRoot = realpathSync(root);
  if (real !== realRoot && !isInsideFolder(real, realRoot)) {
    throw new BookError(
      `the ${what} is ${real === path.resolve(folder) ? '' : `a link to `}${real}, outside the project: everything the site publishes must live inside the project`,
      where(folder),
    );
  }
}

/** Refuses what is neither a file nor a folder: a FIFO would block a read forever, a device has no end. */
export function assertFileOrFolder(stats: Stats, source: string, what = 'static file'): void {
  if (!stats.isFile() && !stats.isDirectory())
    throw new BookError(`this ${what} is neither a file nor a folder (a FIFO, socket or device?)`, where(source));
}

/**
 * Every file of the static folders, in a stable order. A link is followed only when it resolves
 * inside the project, so the output never holds a link and nothing outside the project leaks into
 * the site; anything that is not a regular file or folder (a FIFO would block a read forever) is an error.
 */
export function listStaticFiles(dirs: string[], root: string | undefined): StaticFile[] {
  const files: StaticFile[] = [];
  const walk = (dir: string, relative: string) => {
    for (const name of readdirSync(path.join(dir, relative)).sort()) {
      if (!relative && name === MARKER_FILE) continue;
      const sitePath = relative ? `${relative}/${name}` : name;
      const source = resolveInsideProject(path.join(dir, sitePath), root);
      const stats = statSync(source);
      assertFileOrFolder(stats, path.join(dir, sitePath));
      if (stats.isDirectory()) walk(dir, sitePath);
      else files.push({ sitePath, source });
    }
  };
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    assertFolderInsideProject(dir, root, 'static folder');
    walk(dir, '');
  }
  return files;
}

/** Site paths of every file in the static folders, for the link check. */
export function staticFilesOf(dirs: string[], root: string | undefined): Set<string> {
  return new Set(listStaticFiles(dirs, root).map((file) => file.sitePath));
}

/** The static folders' files as site files (path -> bytes), for watch mode, which syncs files one by one. */
export function readStaticFiles(dirs: string[], root: string | undefined): Map<string, Uint8Array> {
  return new Map(listStaticFiles(dirs, root).map((file) => [file.sitePath, readFileSync(file.source)]));
}
