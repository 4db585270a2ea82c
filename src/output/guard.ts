import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BookConfig } from '../config/types.js';
import { isInsideFolder } from '../shared/paths.js';
import { isPybookOutput } from './marker.js';

/** A refused output folder: the message says why and what to do instead. */
export class OutputFolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputFolderError';
  }
}

/** Folders of a project that an output folder may never be, contain or sit inside. */
export interface ProtectedFolders {
  /** The project root (the folder of book.config.json): the output may not be it or any parent of it. */
  root?: string;
  /** Folders the output may be neither, nor contain, nor sit inside (content, static, templates, src…). */
  folders: Array<{ path: string; what: string }>;
}

export function protectedFoldersOf(config: BookConfig): ProtectedFolders {
  const inRoot = (name: string) => path.resolve(config.rootDir, name);
  return {
    root: config.rootDir,
    folders: [
      { path: inRoot(config.contentDir), what: 'the content folder (contentDir)' },
      { path: inRoot(config.staticDir), what: 'the static folder (staticDir)' },
      { path: inRoot('templates'), what: 'the templates folder' },
      { path: inRoot('src'), what: 'the source folder src' },
      { path: inRoot('node_modules'), what: 'node_modules' },
      { path: inRoot('.git'), what: 'the git folder' },
    ],
  };
}

/** The real path of `target`, resolving links in the part of it that exists. */
function realPathOf(target: string): string {
  const missing: string[] = [];
  let existing = path.resolve(target);
  while (!existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    missing.unshift(path.basename(existing));
    existing = parent;
  }
  try {
    return path.join(realpathSync(existing), ...missing);
  } catch {
    return path.resolve(target);
  }
}


/**
 * Refuses an output folder that pybook must not replace: the file-system root, the home folder,
 * the project or a parent of it, the project's own folders (or anything inside or around them),
 * a link, a file, and any non-empty folder that pybook did not write (see marker.ts).
 * Called before anything is built, so a mistyped --out-dir costs nothing.
 */
export function assertSafeOutputDir(outDir: string, protect: ProtectedFolders = { folders: [] }): void {
  const shown = outDir;
  const target = realPathOf(outDir);
  const refuse = (why: string, hint = 'Choose a new or empty folder, such as build/.') => {
    throw new OutputFolderError(`refusing to write the site to --out-dir ${shown} (${target}): ${why}. ${hint}`);
  };
  if (target === path.parse(target).root) refuse('it is the root of the file system');
  const home = realPathOf(os.homedir());
  if (target === home || isInsideFolder(home, target)) refuse('it is your home folder or contains it');
  if (protect.root) {
    const root = realPathOf(protect.root);
    if (target === root) refuse('it is the project folder itself, and the build replaces its output folder whole');
    if (isInsideFolder(root, target)) refuse('it contains the project folder');
  }
  const folders = protect.folders.map((folder) => ({ ...folder, real: realPathOf(folder.path) }));
  // The most precise reason first: "is the static folder" rather than "is inside the content folder".
  for (const folder of folders) if (target === folder.real) refuse(`it is ${folder.what}`);
  for (const folder of folders) {
    if (isInsideFolder(folder.real, target)) refuse(`it contains ${folder.what}`);
    if (isInsideFolder(target, folder.real)) refuse(`it is inside ${folder.what}`);
  }
  let stats;
  try {
    stats = lstatSync(path.resolve(outDir));
  } catch {
    return; // does not exist yet: the build creates it
  }
  if (stats.isSymbolicLink()) refuse('it is a symbolic link, and the build would replace the link, not the folder it points to', 'Pass the real folder instead.');
  if (!stats.isDirectory()) refuse('it is a file, not a folder');
  if (readdirSync(target).length > 0 && !isPybookOutput(target)) {
    refuse('it is not empty and pybook did not create it (it has no .pybook-output marker), so replacing it could delete your files',
      'Choose a new or empty folder, or empty this one yourself if its contents can go.');
  }
}
