import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { BookError } from '../shared/errors.js';
import { MARKER_FILE } from './marker.js';

/** Site-relative paths ('img/cover.svg') of every file in the static folders, for the link check. */
export function staticFilesOf(dirs: string[]): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string, relative: string) => {
    for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      let isDirectory = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        try { isDirectory = statSync(path.join(dir, rel)).isDirectory(); } catch { continue; }
      }
      if (isDirectory) walk(dir, rel);
      else found.add(rel);
    }
  };
  for (const dir of dirs) if (existsSync(dir)) walk(dir, '');
  return found;
}

/**
 * The static folders' files as site files (path -> bytes), for watch mode, which syncs files one by
 * one instead of replacing the folder; the same rules as copyStaticFolder apply to links.
 */
export function readStaticFiles(dirs: string[], root: string | undefined): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const relative of [...staticFilesOf([dir])].sort()) {
      if (relative === MARKER_FILE) continue;
      files.set(relative, readFileSync(resolveStaticFile(path.join(dir, relative), root)));
    }
  }
  return files;
}

/** A static file's real path; a link must resolve, and resolve inside the project. */
function resolveStaticFile(source: string, root: string | undefined): string {
  if (!lstatSync(source).isSymbolicLink()) return source;
  let real: string;
  try {
    real = realpathSync(source);
  } catch {
    throw new BookError('this static file is a link to nothing (a dangling symbolic link)', { file: path.relative(process.cwd(), source) });
  }
  const realRoot = root ? realpathSync(root) : undefined;
  if (realRoot && !real.startsWith(realRoot + path.sep)) {
    throw new BookError(`this static file is a link to ${real}, outside the project: static files must live inside the project`, { file: path.relative(process.cwd(), source) });
  }
  return real;
}

/**
 * Copies a static folder's files as bytes. A link is followed only when it resolves inside the
 * project: the output never holds a link, and nothing outside the project leaks into the site.
 */
export function copyStaticFolder(from: string, to: string, root: string | undefined, relative = ''): void {
  for (const name of readdirSync(path.join(from, relative)).sort()) {
    const rel = relative ? path.join(relative, name) : name;
    if (!relative && name === MARKER_FILE) continue;
    const source = path.join(from, rel);
    const stats = statSync(resolveStaticFile(source, root));
    const destination = path.join(to, rel);
    if (stats.isDirectory()) {
      mkdirSync(destination, { recursive: true });
      copyStaticFolder(from, to, root, rel);
    } else if (stats.isFile()) {
      mkdirSync(path.dirname(destination), { recursive: true });
      copyFileSync(source, destination);
    } else {
      throw new BookError('this static file is neither a file nor a folder (a FIFO, socket or device?)', { file: path.relative(process.cwd(), source) });
    }
  }
}
