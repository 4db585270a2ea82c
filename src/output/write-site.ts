import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeContents, type FileContents } from './copied-file.js';
import { assertSafeOutputDir, type ProtectedFolders } from './guard.js';
import { isPybookOutput, MARKER_FILE, markerJson } from './marker.js';
import { copyStaticFiles } from './static-files.js';

/** The files of a site, relative path -> contents, written in one go. */
export type SiteFiles = Map<string, FileContents>;

export interface WriteSiteOptions {
  /** The project's folders that the output may never replace (see guard.ts). */
  protect?: ProtectedFolders;
  /** Static files may not resolve outside this folder (the project root). */
  staticRoot?: string;
  /**
   * More files, written after `files` and read one at a time, so that each may be made just
   * before it is written and dropped after (see BuildOptions.streamDocuments).
   */
  streamed?: Iterable<[string, FileContents]>;
}

const STAGING = '.staging-';
const RETIRED = '.previous-';

function processIsAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The staging and retired folders that earlier builds of `target` left behind when they were
 * killed, oldest first. Only folders that carry pybook's marker and whose process is gone count:
 * a build running beside this one keeps its own.
 */
function leftoversOf(target: string): Array<{ dir: string; kind: 'staging' | 'retired'; empty: boolean; mtimeMs: number }> {
  const parent = path.dirname(target);
  const base = path.basename(target);
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const found = [];
  for (const name of names) {
    const kind = name.startsWith(base + STAGING) ? 'staging' : name.startsWith(base + RETIRED) ? 'retired' : undefined;
    if (!kind) continue;
    const pid = Number(name.slice(base.length + (kind === 'staging' ? STAGING : RETIRED).length));
    if (!Number.isInteger(pid) || processIsAlive(pid)) continue;
    const dir = path.join(parent, name);
    // An empty folder is one a build made and was killed before it wrote the marker into it.
    if (!lstatSync(dir).isDirectory()) continue;
    const empty = readdirSync(dir).length === 0;
    if (!empty && !isPybookOutput(dir)) continue;
    found.push({ dir, kind, empty, mtimeMs: statSync(dir).mtimeMs } as const);
  }
  return found.sort((a, b) => a.mtimeMs - b.mtimeMs);
}

/**
 * Repairs what a killed build left: if it died between moving the old site aside and moving the
 * new one in, the old site is moved back; then every stale staging or retired folder is deleted.
 */
export function recoverOutputDir(outDir: string): void {
  const target = path.resolve(outDir);
  const leftovers = leftoversOf(target);
  if (!existsSync(target)) {
    // Only a site (never an empty folder) is moved back.
    const newestRetired = leftovers.filter((l) => l.kind === 'retired' && !l.empty).pop();
    if (newestRetired) {
      renameSync(newestRetired.dir, target);
      leftovers.splice(leftovers.indexOf(newestRetired), 1);
    }
  }
  for (const leftover of leftovers) rmSync(leftover.dir, { recursive: true, force: true });
}

/**
 * Writes the site into a fresh sibling folder and swaps it in at the end, so a failed or killed
 * build never leaves a half-written or emptied output folder behind. The folder must be one pybook
 * may replace (see guard.ts); the marker is written first, so that a killed build's staging folder
 * is provably pybook's and the next build sweeps it.
 */
export function writeSiteAtomically(outDir: string, files: SiteFiles, staticDirs: string[], options: WriteSiteOptions = {}): void {
  assertSafeOutputDir(outDir, options.protect);
  const target = path.resolve(outDir);
  recoverOutputDir(target);
  const staging = `${target}${STAGING}${process.pid}`;
  const retired = `${target}${RETIRED}${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const marker = files.get(MARKER_FILE) ?? markerJson([]);
  try {
    mkdirSync(staging, { recursive: true });
    writeContents(path.join(staging, MARKER_FILE), marker);
    copyStaticFiles(staticDirs, staging, options.staticRoot);
    // Sorted so that the write order (and any error) is the same on every run.
    const made = new Set<string>();
    const write = (name: string, contents: FileContents) => {
      const file = path.join(staging, name);
      const folder = path.dirname(file);
      if (!made.has(folder)) mkdirSync(folder, { recursive: true });
      made.add(folder);
      writeContents(file, contents);
    };
    for (const name of [...files.keys()].sort()) if (name !== MARKER_FILE) write(name, files.get(name)!);
    for (const [name, contents] of options.streamed ?? []) {
      if (files.has(name) || name === MARKER_FILE) throw new Error(`${name} is both a streamed and a listed file of the site`);
      write(name, contents);
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  // Between these two renames a kill leaves the old site in `retired`: recoverOutputDir moves it back.
  if (existsSync(target)) renameSync(target, retired);
  renameSync(staging, target);
  rmSync(retired, { recursive: true, force: true });
}
