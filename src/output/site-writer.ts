import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { writeContents, type FileContents } from './copied-file.js';
import { BOOKKEEPING, entryOf, JOURNAL_FILE, manifestJson, mtimeNsOf, WRITTEN_FILE, writtenSpanJson, type ManifestEntry } from './manifest.js';
import { MARKER_FILE } from './marker.js';
import { removeWrittenFiles } from './remove-written.js';

/** What a journal proves: the files it lists, and the last one, which a kill may have cut short. */
export interface JournalListing { files: Map<string, ManifestEntry>; mayBeShort?: string }

/**
 * Writes a site's files into a new, empty folder and keeps the proof that they are pybook's: each
 * file's entry goes into the journal before the file is written, and `finish` writes the manifest
 * (see manifest.ts). A writer that fails is `abandon`ed: it deletes what it wrote, and only that.
 */
export class SiteWriter {
  private readonly entries = new Map<string, ManifestEntry>();
  private readonly made = new Set<string>();
  private readonly journal: number;
  private readonly from: bigint;
  private last: string | undefined;

  constructor(readonly dir: string) {
    const journalFile = path.join(dir, JOURNAL_FILE);
    this.journal = openSync(journalFile, 'wx');
    // The kernel's clock, as file times use it: every file written after this has a later time.
    this.from = mtimeNsOf(journalFile);
  }

  write(name: string, contents: FileContents): void {
    if (BOOKKEEPING.has(name)) throw new Error(`${name} is the name of pybook's own bookkeeping file: no file of the site may have it`);
    const entry = entryOf(contents);
    writeSync(this.journal, `${JSON.stringify([name, ...entry])}\n`);
    this.entries.set(name, entry);
    this.last = name;
    const file = path.join(this.dir, name);
    const folder = path.dirname(file);
    if (!this.made.has(folder)) mkdirSync(folder, { recursive: true });
    this.made.add(folder);
    writeContents(file, contents);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Writes the manifest and the span of time the files were written in, and drops the journal. */
  finish(contentNamed: readonly string[]): void {
    const manifestFile = path.join(this.dir, MARKER_FILE);
    writeFileSync(manifestFile, manifestJson(contentNamed, this.entries));
    writeFileSync(path.join(this.dir, WRITTEN_FILE), writtenSpanJson(this.from, mtimeNsOf(manifestFile)));
    closeSync(this.journal);
    unlinkSync(path.join(this.dir, JOURNAL_FILE));
  }

  /** Deletes what this writer wrote (never anything else) and the folder if nothing else is in it. */
  abandon(): string[] {
    closeSync(this.journal);
    return removeWrittenFiles(this.dir, { files: this.entries, mayBeShort: this.last });
  }
}

/** The journal a killed build left in `dir`, or undefined when there is none. A torn last line is ignored. */
export function readJournal(dir: string): JournalListing | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(dir, JOURNAL_FILE), 'utf8');
  } catch {
    return undefined;
  }
  const files = new Map<string, ManifestEntry>();
  let mayBeShort: string | undefined;
  for (const line of text.split('\n')) {
    try {
      const [name, size, sha1] = JSON.parse(line) as [unknown, unknown, unknown];
      if (typeof name !== 'string' || !Number.isSafeInteger(size) || typeof sha1 !== 'string') continue;
      files.set(name, [size as number, sha1]);
      mayBeShort = name;
    } catch {
      // a line the kill cut short
    }
  }
  return { files, mayBeShort };
}
