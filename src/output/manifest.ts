import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CopiedFile, sameWhileUnchanged, type FileContents } from './copied-file.js';
import { contentNamedOfMarker, MARKER_FILE, markerFields } from './marker.js';

/**
 * The manifest: the output folder's record of every file pybook wrote into it, by path, size and
 * SHA-1 of the bytes. It is what makes a folder replaceable. A marker alone could be planted or
 * copied into a folder of someone's files; a manifest covers only the files it lists, with the
 * bytes it lists, so a folder holding anything else is never deleted (see foreignFilesIn).
 *
 * SHA-1 is used for speed (half the time of SHA-256 here): the manifest guards against mistakes
 * and copied markers, not against someone who writes a manifest by hand.
 *
 * The manifest is written into the folder as MARKER_FILE and is deterministic (two builds of the
 * same book write the same bytes). Beside it, WRITTEN_FILE holds when the files were written: a
 * listed file of the listed size whose modification time falls inside that span is taken as the
 * one pybook wrote without reading it back, so checking a 30 MB site costs a stat per file; any
 * other listed file is hashed.
 */
export const WRITTEN_FILE = '.pybook-written';

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

/** When the listed files were written, in nanoseconds since the epoch (as strings: BigInt has no JSON). */
interface WrittenSpan { from: string; to: string }

const sha1 = (data: string | Uint8Array) => createHash('sha1').update(data).digest('hex');

/** A copied file's hash is computed once per source file and kept while the source is unchanged. */
const hashOfCopied = sameWhileUnchanged((source) => sha1(readFileSync(source)));

export function entryOf(contents: FileContents): ManifestEntry {
  if (contents instanceof CopiedFile) return [contents.size, contents.sha1 ?? hashOfCopied(contents.source)];
  return typeof contents === 'string' ? [Buffer.byteLength(contents), sha1(contents)] : [contents.length, sha1(contents)];
}

export function manifestJson(contentNamed: readonly string[], files: ReadonlyMap<string, ManifestEntry>): string {
  const manifest: Manifest = {
    ...markerFields(contentNamed),
    version: 2,
    files: Object.fromEntries([...files.keys()].sort().map((name) => [name, files.get(name)!])),
  };
  return `${JSON.stringify(manifest)}\n`;
}

const isEntry = (value: unknown): value is ManifestEntry =>
  Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && typeof value[1] === 'string';

/** The manifest of `dir`, or undefined when it has none (no marker, an old marker without a file list, or garbage). */
export function readManifest(dir: string): Manifest | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path.join(dir, MARKER_FILE), 'utf8')) as Partial<Manifest>;
    if (parsed.generator !== 'pybook' || parsed.version !== 2 || typeof parsed.files !== 'object' || parsed.files === null) return undefined;
    if (!Object.values(parsed.files).every(isEntry)) return undefined;
    return { ...parsed, contentNamed: Array.isArray(parsed.contentNamed) ? parsed.contentNamed : [] } as Manifest;
  } catch {
    return undefined;
  }
}

export function writtenSpanJson(from: bigint, to: bigint): string {
  const span: WrittenSpan = { from: String(from), to: String(to) };
  return `${JSON.stringify(span)}\n`;
}

function readWrittenSpan(dir: string): { from: bigint; to: bigint } | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path.join(dir, WRITTEN_FILE), 'utf8')) as Partial<WrittenSpan>;
    return { from: BigInt(parsed.from!), to: BigInt(parsed.to!) };
  } catch {
    return undefined;
  }
}

/** The bookkeeping files pybook keeps at the root of a folder it writes. */
export const BOOKKEEPING = new Set([MARKER_FILE, WRITTEN_FILE, JOURNAL_FILE]);

/** What a folder holds besides pybook's own files, as site-relative paths. */
export interface FolderCheck {
  manifest?: Manifest;
  /** Files and folders pybook did not write, or whose bytes changed since. */
  foreign: string[];
}

/**
 * The files of `dir` that its manifest does not prove pybook wrote: unlisted files, listed files
 * whose size or bytes differ, links, sockets and other special files. With no manifest every
 * file is foreign. `listed` replaces the manifest's list
 * (a killed build's journal, see write-site.ts); `mayBeShort` names a file that may have been cut
 * short by the kill.
 */
export function foreignFilesIn(dir: string, listed?: { files: ReadonlyMap<string, ManifestEntry>; mayBeShort?: string }): FolderCheck {
  const manifest = listed ? undefined : readManifest(dir);
  const files = listed?.files ?? new Map(Object.entries(manifest?.files ?? {}));
  const span = listed ? undefined : readWrittenSpan(dir);
  const foreign: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (!relative && BOOKKEEPING.has(name) && entry.isFile()) continue;
      // A folder is judged by what it holds: an empty one loses nothing when it goes.
      if (entry.isDirectory()) walk(name);
      else if (!entry.isFile() || !isProvenFile(path.join(dir, name), files.get(name), span, name === listed?.mayBeShort)) {
        foreign.push(name);
      }
    }
  };
  walk('');
  return { manifest, foreign: foreign.sort() };
}

function isProvenFile(file: string, entry: ManifestEntry | undefined, span: { from: bigint; to: bigint } | undefined, mayBeShort: boolean): boolean {
  if (!entry) return false;
  const stats = lstatSync(file, { bigint: true });
  if (mayBeShort && stats.size < BigInt(entry[0])) return true;
  if (stats.size !== BigInt(entry[0])) return false;
  if (span && stats.mtimeNs >= span.from && stats.mtimeNs <= span.to) return true;
  return sha1(readFileSync(file)) === entry[1];
}

/** Lists foreign files for a message: the first few, and how many more. */
export function describeForeign(foreign: readonly string[], most = 8): string {
  const shown = foreign.slice(0, most).join(', ');
  return foreign.length > most ? `${shown} and ${foreign.length - most} more` : shown;
}

/** True when `dir` holds a manifest and nothing it does not prove: a folder pybook may replace. */
export function isProvenOutput(dir: string): boolean {
  const check = foreignFilesIn(dir);
  return check.manifest !== undefined && check.foreign.length === 0;
}

/** The modification time of a file just written, for the written span. */
export function mtimeNsOf(file: string): bigint {
  return statSync(file, { bigint: true }).mtimeNs;
}

/**
 * The manifest of an output folder that watch mode updates in place: after each sync it lists the
 * site's files again. A file whose contents are the same value as last time keeps its entry, so a
 * save rehashes only what changed. The written span starts where the folder's last one did (the
 * files a sync leaves alone were written then).
 */
export class LiveManifest {
  private entries = new Map<string, { contents: FileContents; entry: ManifestEntry }>();
  private readonly from: bigint;

  constructor(private readonly outDir: string) {
    const manifestFile = path.join(outDir, MARKER_FILE);
    const span = readWrittenSpan(outDir);
    let now: bigint;
    try {
      now = mtimeNsOf(manifestFile);
    } catch {
      now = BigInt(Date.now()) * 1_000_000n;
    }
    this.from = span && span.from < now ? span.from : now;
  }

  /** Lists `files` (the site's, as now on disk) in the folder's manifest. */
  write(files: ReadonlyMap<string, FileContents>): void {
    const next = new Map<string, { contents: FileContents; entry: ManifestEntry }>();
    for (const [name, contents] of files) {
      if (name === MARKER_FILE) continue;
      const known = this.entries.get(name);
      next.set(name, known !== undefined && known.contents === contents ? known : { contents, entry: entryOf(contents) });
    }
    this.entries = next;
    const manifestFile = path.join(this.outDir, MARKER_FILE);
    const list = new Map([...next].map(([name, { entry }]) => [name, entry]));
    writeFileSync(manifestFile, manifestJson(contentNamedOfMarker(files.get(MARKER_FILE) as string | undefined), list));
    writeFileSync(path.join(this.outDir, WRITTEN_FILE), writtenSpanJson(this.from, mtimeNsOf(manifestFile)));
  }
}
