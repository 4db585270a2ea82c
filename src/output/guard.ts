import { existsSync, lstatSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BookConfig } from '../shared/model/config.js';
import { isInsideFolder } from '../core/paths.js';
import { realPathOf } from '../core/project-folder.js';
import { describeForeign, foreignFilesIn } from './manifest.js';
import type { WrittenStamps } from './written-stamps.js';

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

/**
 * The folders of a project the output is never written to, by name, whatever they hold (even a
 * manifest): a project's own folders are not pybook's to replace. Any other folder is judged by
 * its manifest.
 */
const PROJECT_FOLDERS: Array<[name: string, what: string]> = [
  ['templates', 'the templates folder'],
  ['src', 'the source folder src'],
  ['node_modules', 'node_modules'],
  ['.git', 'the git folder'],
  ...['docs', 'test', 'tests', 'bin', 'dist', 'bench', 'tools', 'scripts', 'lib', '.github', '.ci'].map(
    (name): [string, string] => [name, `the project's ${name} folder`],
  ),
];

export function protectedFoldersOf(config: BookConfig): ProtectedFolders {
  const inRoot = (name: string) => path.resolve(config.rootDir, name);
  return {
    root: config.rootDir,
    folders: [
      { path: inRoot(config.contentDir), what: 'the content folder (contentDir)' },
      { path: inRoot(config.staticDir), what: 'the static folder (staticDir)' },
      ...PROJECT_FOLDERS.map(([name, what]) => ({ path: inRoot(name), what })),
    ],
  };
}

/** The nearest existing folder above `target`, refusing a path that runs through a file. */
function existingAncestorIsFile(target: string): string | undefined {
  for (let at = path.dirname(target); ; at = path.dirname(at)) {
    if (existsSync(at)) return statSync(at).isDirectory() ? undefined : at;
    if (path.dirname(at) === at) return undefined;
  }
}

/**
 * Refuses an output folder that pybook must not replace: the file-system root, the home folder,
 * the project or a parent of it, the project's own folders (or anything inside or around them),
 * a link, a file, a path under a file, and any non-empty folder holding a file that its manifest
 * does not prove pybook wrote (see manifest.ts): the message lists those files.
 * Called before anything is built, so a mistyped --out-dir costs nothing.
 */
export function assertSafeOutputDir(
  outDir: string,
  protect: ProtectedFolders = { folders: [] },
  stamps?: WrittenStamps,
): void {
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
    const file = existingAncestorIsFile(target);
    if (file) refuse(`${file} is a file, so no folder can be made under it`);
    return; // does not exist yet: the build creates it
  }
  if (stats.isSymbolicLink())
    refuse(
      'it is a symbolic link, and the build would replace the link, not the folder it points to',
      'Pass the real folder instead.',
    );
  if (!stats.isDirectory()) refuse('it is a file, not a folder');
  const { manifest, foreign, corrupt } = foreignFilesIn(target, undefined, stamps);
  if (corrupt) {
    refuse(
      `its manifest ${corrupt.file} is corrupt (${corrupt.problem}), so nothing in the folder is proven pybook's`,
      'Move the folder away, or delete it yourself if its contents can go.',
    );
  }
  if (foreign.length === 0) return;
  if (!manifest) {
    refuse(
      `it is not empty and holds no manifest of pybook's (.pybook-output listing the files a build wrote), so replacing it could delete your files: ${describeForeign(foreign)}`,
      'Choose a new or empty folder, or empty this one yourself if its contents can go.',
    );
  }
  refuse(
    `it holds files pybook did not write, or that changed since: ${describeForeign(foreign)}`,
    'Move those files out (the site is replaced whole), or choose another folder.',
  );
}
