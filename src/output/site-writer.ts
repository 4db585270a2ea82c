import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { writeContents, type FileContents } from './copied-file.js';
import { BOOKKEEPING, entryOf, entryProblem, JOURNAL_FILE, manifestJson, type ManifestEntry } from './manifest.js';
import { MARKER_FILE } from './marker.js';
import { removeWrittenFiles } from './remove-written.js';
import { sitePathProblem } from './site-path.js';
import { stampOf, type WrittenStamps } from './written-stamps.js';

/** What a journal proves: the files it lists, and the last one, which a kill may have cut short. */
export interface JournalListing {
  files: Map<string, ManifestEntry>;
  mayBeShort?: string;
}

/**
 * Writes a site's files into a new, empty folder and keeps the proof that they are pybook's: each
 * file's entry goes into the journal before the file is written, and `finish` writes the manifest
 * (see manifest.ts); each file's stamp is kept in memory for the StampStore. A writer that fails is
 * `abandon`ed: it deletes what it wrote, and only that.
 */
export class SiteWriter {
  private readonly entries = new Map<string, ManifestEntry>();
  /** The stamp of every file this writer wrote, right after writing it. */
  readonly stamps: WrittenStamps = new Map();
  private readonly made = new Set<string>();
  private readonly journal: number;
  private last: string | undefined;

  constructor(readonly dir: string) {
    this.journal = openSync(path.join(dir, JOURNAL_FILE), 'wx');
  }

  write(name: string, contents: FileContents): void {
    const problem = sitePathProblem(name);
    if (problem)
      throw new Error(`a file of the site has ${problem}: every file must be named by a plain relative path`);
    if (BOOKKEEPING.has(name))
      throw new Error(`${name} is the name of pybook's own bookkeeping file: no file of the site may have it`);
    if (this.entries.has(name))
      throw new Error(
        `${name} is written twice: two files of the site (a static file and a page, say) have the same path`,
      );
    const entry = entryOf(contents);
    writeSync(this.journal, `${JSON.stringify([name, ...entry])}\n`);
    this.entries.set(name, entry);
    this.last = name;
    const file = path.join(this.dir, name);
    const folder = path.dirname(file);
    if (!this.made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      // A file's name may not also be a folder's ("a" and "a/b"): the folder must be a real one.
      if (!lstatSync(folder).isDirectory())
        throw new Error(`${path.relative(this.dir, folder)} is both a file and a folder of the site`);
    }
    this.made.add(folder);
    writeContents(file, contents);
    this.stamps.set(name, stampOf(file));
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Writes the manifest and drops the journal. */
  finish(contentNamed: readonly string[]): void {
    writeFileSync(path.join(this.dir, MARKER_FILE), manifestJson(contentNamed, this.entries));
    closeSync(this.journal);
    unlinkSync(path.join(this.dir, JOURNAL_FILE));
  }

  /** Deletes what this writer wrote (never anything else) and the folder if nothing else is in it. */
  abandon(): string[] {
    closeSync(this.journal);
    return removeWrittenFiles(this.dir, { files: this.entries, mayBeShort: this.last }, this.stamps);
  }
}

/** A journal as read: none, one that names something it cannot (corrupt, and why), or its listing. */
export type JournalRead =
  { kind: 'none' } | { kind: 'corrupt'; problem: string } | { kind: 'journal'; listing: JournalListing };

/**
 * The journal a killed build left in `dir`. A torn last line is ignored (the kill cut it short);
 * any other line that is not [site path, size, SHA-1] makes the whole journal corrupt.
 */
export function readJournal(dir: string): JournalRead {
  let text: string;
  try {
    const file = path.join(dir, JOURNAL_FILE);
    if (!lstatSync(file).isFile()) return { kind: 'corrupt', problem: 'the journal is not a regular file' };
    text = readFileSync(file, 'utf8');
  } catch {
    return { kind: 'none' };
  }
  const files = new Map<string, ManifestEntry>();
  let mayBeShort: string | undefined;
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // Only the last line can be torn by a kill (an empty last line is the file's end).
      if (i === lines.length - 1) continue;
      return { kind: 'corrupt', problem: `line ${i + 1} is not JSON` };
    }
    const [name, size, sha1] = Array.isArray(parsed) && parsed.length === 3 ? (parsed as unknown[]) : [];
    const problem =
      Array.isArray(parsed) && parsed.length === 3
        ? (sitePathProblem(name) ?? entryProblem([size, sha1]))
        : 'an entry that is not [name, size, sha1]';
    if (problem) return { kind: 'corrupt', problem: `line ${i + 1} has ${problem}` };
    files.set(name as string, [size as number, sha1 as string]);
    mayBeShort = name as string;
  }
  return { kind: 'journal', listing: { files, mayBeShort } };
}
