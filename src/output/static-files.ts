import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { BookError } from '../shared/errors.js';
import { isInsideFolder } from '../shared/paths.js';
import { MARKER_FILE } from './marker.js';

/** One file of the static folders: its path in the site ('img/cover.svg') and the real file to read. */
interface StaticFile { sitePath: string; source: string }

const where = (file: string) => ({ file: path.relative(process.cwd(), file) });

/** A static file's real path: a link must resolve, and resolve inside the project (`root`). */
function resolveStaticFile(source: string, root: string | undefined): string {
  if (!lstatSync(source).isSymbolicLink()) return source;
  let real: string;
  try {
    real = realpathSync(source);
  } catch {
    throw new BookError('this static file is a link to nothing (a dangling symbolic link)', where(source));
  }
  if (root && !isInsideFolder(real, realpathSync(root))) {
    throw new BookError(`this static file is a link to ${real}, outside the project: static files must live inside the project`, where(source));
  }
  return real;
}

/**
 * Every file of the static folders, in a stable order. A link is followed only when it resolves
 * inside the project, so the output never holds a link and nothing outside the project leaks into
 * the site; anything that is not a regular file or folder (a FIFO would block a read forever) is an error.
 */
function listStaticFiles(dirs: string[], root: string | undefined): StaticFile[] {
  const files: StaticFile[] = [];
  const walk = (dir: string, relative: string) => {
    for (const name of readdirSync(path.join(dir, relative)).sort()) {
      if (!relative && name === MARKER_FILE) continue;
      const sitePath = relative ? `${relative}/${name}` : name;
      const source = resolveStaticFile(path.join(dir, sitePath), root);
      const stats = statSync(source);
      if (stats.isDirectory()) walk(dir, sitePath);
      else if (stats.isFile()) files.push({ sitePath, source });
      else throw new BookError('this static file is neither a file nor a folder (a FIFO, socket or device?)', where(path.join(dir, sitePath)));
    }
  };
  for (const dir of dirs) if (existsSync(dir)) walk(dir, '');
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

/** Copies the static folders' files into `to` as bytes. */
export function copyStaticFiles(dirs: string[], to: string, root: string | undefined): void {
  for (const file of listStaticFiles(dirs, root)) {
    const destination = path.join(to, file.sitePath);
    mkdirSync(path.dirname(destination), { recursive: true });
    copyFileSync(file.source, destination);
  }
}
