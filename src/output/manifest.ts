import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, writeFileSync, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { CopiedFile, sameWhileUnchanged, type FileContents } from './copied-file.js';
import { contentNamedOfMarker, MARKER_FILE, markerFields } from './marker.js';
import { sitePathProblem } from './site-path.js';
import { stampMatches, type FileStamp, type WrittenStamps } from './written-stamps.js';

/**
 * The manifest: the output folder's record of every file pybook wrote into it, by path, size and
 * SHA-1 of the bytes. It is what makes a folder replaceable. A marker alone could be planted or
 * copied into a folder of someone's files; a manifest covers only the files it lists, with the
 * bytes it lists, so a folder holding anything else is never deleted (see foreignFilesIn).
 *
 * SHA-1 is used for speed (half the time of SHA-256 here): the manifest guards against mistakes
 * and copied markers, not against someone who writes a manifest by hand (who could only make
 * pybook delete files whose exact bytes they already know).
 *
 * The manifest is written into the folder as MARKER_FILE and is deterministic (two builds of the
 * same book write the same bytes). Its names are data: one that is not a plain relative path (see
 * site-path.ts) makes the whole manifest corrupt. Nothing in the folder says when its files were
 * written: a file is proven without reading it only by the stamps pybook keeps of what it wrote,
 * outside the folder (written-stamps.ts).
 */

/**
 * While a build writes its staging folder, each file's manifest entry is appended here before the
 * file is written: a build killed part way leaves a folder whose every file the journal proves.
 */
export const JOURNAL_FILE = '.pybook-journal';

/** [size in bytes, SHA-1 in hex] of one written file. */
export type ManifestEntry = [size: number, sha1: string];

export interface Manifest {
  generator: 'pybook';
  /** 2: the first version that lists its files. */
  version: 2;
  note: string;
  /** Site-relative paths of files whose name changes whenever their content does (the server reads this). */
  contentNamed: string[];
  /** Every file pybook wrote, by site-relative path ('a/b.html'). */
  files: Record<string, ManifestEntry>;
}

const sha1 = (data: string | Uint8Array) => createHash('sha1').update(data).digest('hex');

/** A copied file's hash is computed once per source file and kept while the source is unchanged. */
const hashOfCopied = sameWhileUnchanged((source) => sha1(readFileSync(source)));

export function entryOf(contents: FileContents): ManifestEntry {
  if (contents instanceof CopiedFile) return [contents.size, contents.sha1 ?? hashOfCopied(contents.source)];
  return typeof contents === 'string'
    ? [Buffer.byteLength(contents), sha1(contents)]
    : [contents.length, sha1(contents)];
}

export function manifestJson(contentNamed: readonly string[], files: ReadonlyMap<string, ManifestEntry>): string {
  const manifest: Manifest = {
    ...markerFields(contentNamed),
    version: 2,
    files: Object.fromEntries([...files.keys()].sort().map((name) => [name, files.get(name)!])),
  };
  return `${JSON.stringify(manifest)}\n`;
}

/** Why a manifest entry is not [size, SHA-1], or undefined. */
export function entryProblem(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length !== 2) return 'an entry that is not [size, sha1]';
  if (!Number.isSafeInteger(value[0]) || (value[0] as number) < 0)
    return `a size that is not a whole number of bytes (${JSON.stringify(value[0])})`;
  // A wrong hash only fails to prove a file: it is data, not a path.
  if (typeof value[1] !== 'string') return `a SHA-1 that is not a string (${JSON.stringify(value[1])})`;
  return undefined;
}

/** A folder's manifest as read: none, one that is corrupt (and why), or the manifest. */
export type ManifestRead =
  { kind: 'none' } | { kind: 'corrupt'; file: string; problem: string } | { kind: 'manifest'; manifest: Manifest };

/**
 * The manifest of `dir`. No manifest (no marker, an old marker without a file list, or not
 * pybook's): 'none'. A manifest of pybook's that names a file outside the folder, lists a broken
 * entry or cannot be parsed: 'corrupt', and nothing it says is used.
 */
export function readManifest(dir: string): ManifestRead {
  const file = path.join(dir, MARKER_FILE);
  let text: string;
  try {
    if (!lstatSync(file).isFile()) return { kind: 'corrupt', file, problem: 'it is not a regular file' };
    text = readFileSync(file, 'utf8');
  } catch {
    return { kind: 'none' };
  }
  let parsed: Partial<Manifest>;
  try {
    parsed = JSON.parse(text) as Partial<Manifest>;
  } catch (error) {
    return { kind: 'corrupt', file, problem: `it is not JSON (${(error as Error).message})` };
  }
  if (typeof parsed !== 'object' || parsed === null || parsed.generator !== 'pybook') return { kind: 'none' };
  if (parsed.version !== 2) return { kind: 'none' };
  if (typeof parsed.files !== 'object' || parsed.files === null || Array.isArray(parsed.files))
    return { kind: 'corrupt', file, problem: 'it has no list of files' };
  for (const [name, entry] of Object.entries(parsed.files)) {
    const problem = sitePathProblem(name) ?? entryProblem(entry);
    if (problem) return { kind: 'corrupt', file, problem: `it lists ${problem}` };
  }
  const contentNamed = Array.isArray(parsed.contentNamed) ? parsed.contentNamed : [];
  for (const name of contentNamed) {
    const problem = sitePathProblem(name);
    if (problem) return { kind: 'corrupt', file, problem: `its contentNamed lists ${problem}` };
  }
  return { kind: 'manifest', manifest: { ...parsed, contentNamed } as Manifest };
}

/** The manifest of `dir` when it has a sound one. */
export function manifestOf(dir: string): Manifest | undefined {
  const read = readManifest(dir);
  return read.kind === 'manifest' ? read.manifest : undefined;
}

/** The bookkeeping files pybook keeps at the root of a folder it writes. */
export const BOOKKEEPING = new Set([MARKER_FILE, JOURNAL_FILE]);

/**
 * Where pybook before 1.3 kept the span of time its files were written in. In a folder now it is
 * proven by its exact shape (nothing else is in such a file) and goes with the old site.
 */
const LEGACY_SPAN_FILE = '.pybook-written';
const isLegacySpan = (file: string) => {
  try {
    return lstatSync(file).isFile() && /^\{"from":"\d+","to":"\d+"\}\n$/.test(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
};

/** What a folder holds besides pybook's own files, as site-relative paths. */
export interface FolderCheck {
  manifest?: Manifest;
  /** The manifest was corrupt: nothing in the folder is proven. */
  corrupt?: { file: string; problem: string };
  /** Files the walk found and proved pybook wrote (the only files anything may delete). */
  proven: string[];
  /** Files and folders pybook did not write, or whose bytes changed since. */
  foreign: string[];
}

/**
 * Walks `dir` and sorts what it finds: files its manifest proves pybook wrote (same size, and
 * the bytes hash to the listed SHA-1, or the file is the very one pybook's stamps name), and the
 * rest, which is foreign: unlisted files, listed files whose size or bytes differ, links, sockets
 * and other special files. With no manifest (or a corrupt one) every file is foreign. `listed`
 * replaces the manifest's list (a killed build's journal, see write-site.ts); `mayBeShort` names
 * a file that may have been cut short by the kill. Only names the walk found are ever returned.
 */
export function foreignFilesIn(
  dir: string,
  listed?: { files: ReadonlyMap<string, ManifestEntry>; mayBeShort?: string },
  stamps?: WrittenStamps,
): FolderCheck {
  const read = listed ? undefined : readManifest(dir);
  const manifest = read?.kind === 'manifest' ? read.manifest : undefined;
  const files = listed?.files ?? new Map(Object.entries(manifest?.files ?? {}));
  const proven: string[] = [];
  const foreign: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (!relative && BOOKKEEPING.has(name) && entry.isFile()) continue;
      // A folder is judged by what it holds: an empty one loses nothing when it goes.
      if (entry.isDirectory()) walk(name);
      else if (
        entry.isFile() &&
        isProvenFile(path.join(dir, name), files.get(name), stamps?.get(name), name === listed?.mayBeShort)
      )
        proven.push(name);
      else if (!relative && name === LEGACY_SPAN_FILE && isLegacySpan(path.join(dir, name))) proven.push(name);
      else foreign.push(name);
    }
  };
  walk('');
  return {
    manifest,
    proven,
    foreign: foreign.sort(),
    ...(read?.kind === 'corrupt' ? { corrupt: { file: read.file, problem: read.problem } } : {}),
  };
}

function isProvenFile(
  file: string,
  entry: ManifestEntry | undefined,
  stamp: FileStamp | undefined,
  mayBeShort: boolean,
): boolean {
  if (!entry) return false;
  const stats: BigIntStats = lstatSync(file, { bigint: true });
  if (mayBeShort && stats.size < BigInt(entry[0])) return true;
  if (stats.size !== BigInt(entry[0])) return false;
  // The very file pybook wrote, untouched since (a write, chmod or rename would have changed its ctime).
  if (stamp && stampMatches(stamp, stats)) return true;
  return sha1(readFileSync(file)) === entry[1];
}

/** Lists foreign files for a message: the first few, and how many more. */
export function describeForeign(foreign: readonly string[], most = 8): string {
  const shown = foreign.slice(0, most).join(', ');
  return foreign.length > most ? `${shown} and ${foreign.length - most} more` : shown;
}

/** True when `dir` holds a sound manifest and nothing it does not prove: a folder pybook may replace. */
export function isProvenOutput(dir: string, stamps?: WrittenStamps): boolean {
  const check = foreignFilesIn(dir, undefined, stamps);
  return check.manifest !== undefined && check.foreign.length === 0;
}

/**
 * The manifest of an output folder that watch mode updates in place: after each sync it lists the
 * site's files again. A file whose contents are the same value as last time keeps its entry, so a
 * save rehashes only what changed.
 */
export class LiveManifest {
  private entries = new Map<string, { contents: FileContents; entry: ManifestEntry }>();

  constructor(private readonly outDir: string) {}

  /** Lists `files` (the site's, as now on disk) in the folder's manifest. */
  write(files: ReadonlyMap<string, FileContents>): void {
    const next = new Map<string, { contents: FileContents; entry: ManifestEntry }>();
    for (const [name, contents] of files) {
      if (name === MARKER_FILE) continue;
      const known = this.entries.get(name);
      next.set(
        name,
        known !== undefined && known.contents === contents ? known : { contents, entry: entryOf(contents) },
      );
    }
    this.entries = next;
    const list = new Map([...next].map(([name, { entry }]) => [name, entry]));
    writeFileSync(
      path.join(this.outDir, MARKER_FILE),
      manifestJson(contentNamedOfMarker(files.get(MARKER_FILE) as string | undefined), list),
    );
  }
}
