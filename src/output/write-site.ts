import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { copyOf, type FileContents } from './copied-file.js';
import { assertSafeOutputDir, OutputFolderError, type ProtectedFolders } from './guard.js';
import { describeForeign, foreignFilesIn } from './manifest.js';
import { contentNamedOfMarker, MARKER_FILE } from './marker.js';
import { removeWrittenFiles } from './remove-written.js';
import { readJournal, SiteWriter, type JournalListing } from './site-writer.js';
import { listStaticFiles } from './static-files.js';
import type { StampStore, WrittenStamps } from './written-stamps.js';

/** The files of a site, relative path -> contents, written in one go. */
export type SiteFiles = Map<string, FileContents>;

export interface WriteSiteOptions {
  /** The project's folders that the output may never replace (see guard.ts). */
  protect?: ProtectedFolders;
  /** Static files may not resolve outside this folder (the project root). */
  staticRoot?: string;
  /**
   * More files, written after `files` and read one at a time, so that each may be made just
   * before it is written and dropped after (see the `streamed` BuildMode).
   */
  streamed?: Iterable<[string, FileContents]>;
  /** Where a note about a folder left in place goes (stderr by default). */
  warn?: (line: string) => void;
  /** Where the stamps of the files written are kept for the next build (without it, the next build hashes them). */
  stamps?: StampStore;
}

const STAGING = '.staging-';
const RETIRED = '.previous-';
const defaultWarn = (line: string) => process.stderr.write(`warning: ${line}\n`);

function processIsAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Leftover {
  dir: string;
  kind: 'staging' | 'retired';
  mtimeMs: number;
}

/** Folders named like the staging or retired folder of a build of `target` whose process is gone. */
function leftoversOf(target: string): Leftover[] {
  const parent = path.dirname(target);
  const base = path.basename(target);
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const found: Leftover[] = [];
  for (const name of names) {
    const kind = name.startsWith(base + STAGING) ? 'staging' : name.startsWith(base + RETIRED) ? 'retired' : undefined;
    if (!kind) continue;
    const pid = Number(name.slice(base.length + (kind === 'staging' ? STAGING : RETIRED).length));
    if (!Number.isInteger(pid) || processIsAlive(pid)) continue;
    const dir = path.join(parent, name);
    const stats = lstatSync(dir);
    // Not a link, and this user's own: in a shared folder (/tmp) a name is all another user can plant.
    if (!stats.isDirectory() || (process.getuid && stats.uid !== process.getuid())) continue;
    found.push({ dir, kind, mtimeMs: statSync(dir).mtimeMs });
  }
  return found.sort((a, b) => a.mtimeMs - b.mtimeMs);
}

/**
 * What proves a leftover folder pybook's: its manifest (a finished site), else its journal (a
 * build killed while writing). `undefined` when nothing does, or something in it is not proven.
 */
function proofOf(dir: string): { listing?: JournalListing; complete: boolean } | undefined {
  const manifestCheck = foreignFilesIn(dir);
  if (manifestCheck.corrupt) return undefined;
  if (manifestCheck.manifest) return manifestCheck.foreign.length === 0 ? { complete: true } : undefined;
  const journal = readJournal(dir);
  if (journal.kind === 'corrupt') return undefined;
  if (journal.kind === 'none')
    return readdirSync(dir).length === 0 ? { listing: { files: new Map() }, complete: false } : undefined;
  return foreignFilesIn(dir, journal.listing).foreign.length === 0
    ? { listing: journal.listing, complete: false }
    : undefined;
}

/**
 * Repairs what a killed build left: if it died between moving the old site aside and moving the
 * new one in, the old site is moved back; then every stale staging or retired folder is deleted,
 * file by file from its manifest or journal. A folder named like one but holding anything pybook
 * did not write is left alone (and said so): a name is no proof.
 */
export function recoverOutputDir(outDir: string, warn: (line: string) => void = defaultWarn): void {
  const target = path.resolve(outDir);
  const proven = [];
  for (const leftover of leftoversOf(target)) {
    const proof = proofOf(leftover.dir);
    if (proof) proven.push({ ...leftover, ...proof });
    else
      warn(
        `left ${leftover.dir} in place: it is named like a folder of an earlier build, but holds files pybook did not write.`,
      );
  }
  if (!existsSync(target)) {
    // Only a finished site (never a staging folder) is moved back.
    const newestRetired = proven.filter((l) => l.kind === 'retired' && l.complete).pop();
    if (newestRetired) {
      renameSync(newestRetired.dir, target);
      proven.splice(proven.indexOf(newestRetired), 1);
    }
  }
  for (const leftover of proven) removeWrittenFiles(leftover.dir, leftover.listing);
}

/**
 * Frees the name of this process's staging or retired folder. A folder already there (planted, or
 * left by a dead process that had this pid) goes only if pybook's proof covers all of it.
 */
function clearTheWay(dir: string): void {
  if (!existsSync(dir)) return;
  const proof = proofOf(dir);
  if (!proof)
    throw new OutputFolderError(
      `${dir} is in the way of the build and holds files pybook did not write (${describeForeign(readdirSync(dir))}). Move it away.`,
    );
  removeWrittenFiles(dir, proof.listing);
}

function writeAll(writer: SiteWriter, files: SiteFiles, staticDirs: string[], options: WriteSiteOptions): void {
  for (const file of listStaticFiles(staticDirs, options.staticRoot)) writer.write(file.sitePath, copyOf(file.source));
  // Sorted so that the write order (and any error) is the same on every run.
  for (const name of [...files.keys()].sort()) if (name !== MARKER_FILE) writer.write(name, files.get(name)!);
  for (const [name, contents] of options.streamed ?? []) {
    if (files.has(name) || name === MARKER_FILE)
      throw new Error(`${name} is both a streamed and a listed file of the site`);
    writer.write(name, contents);
  }
  writer.finish(contentNamedOfMarker(files.get(MARKER_FILE) as string | undefined));
}

/**
 * Writes the site into a fresh sibling folder and swaps it in at the end, so a failed or killed
 * build never leaves a half-written or emptied output folder behind. The folder must be one pybook
 * may replace (see guard.ts: everything in it is listed in its manifest). The old site is then
 * deleted file by file from its manifest, so a file that appeared in it meanwhile survives.
 */
export function writeSiteAtomically(
  outDir: string,
  files: SiteFiles,
  staticDirs: string[],
  options: WriteSiteOptions = {},
): void {
  const warn = options.warn ?? defaultWarn;
  const target = path.resolve(outDir);
  const oldStamps: WrittenStamps | undefined = options.stamps?.load(target);
  assertSafeOutputDir(outDir, options.protect, oldStamps);
  recoverOutputDir(target, warn);
  const staging = `${target}${STAGING}${process.pid}`;
  const retired = `${target}${RETIRED}${process.pid}`;
  clearTheWay(staging);
  clearTheWay(retired);
  mkdirSync(staging, { recursive: true });
  const writer = new SiteWriter(staging);
  try {
    writeAll(writer, files, staticDirs, options);
  } catch (error) {
    writer.abandon();
    throw error;
  }
  // Between these two renames a kill leaves the old site in `retired`: recoverOutputDir moves it back.
  const hadSite = existsSync(target);
  if (hadSite) renameSync(target, retired);
  renameSync(staging, target);
  options.stamps?.save(target, writer.stamps);
  if (!hadSite) return;
  const left = removeWrittenFiles(retired, undefined, oldStamps);
  if (left.length > 0)
    warn(`left ${retired} in place: files appeared in the old site while it was replaced (${describeForeign(left)}).`);
}
