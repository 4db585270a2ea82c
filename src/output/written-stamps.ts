import { lstatSync, type BigIntStats } from 'node:fs';

/**
 * A file's identity on disk right after pybook wrote it: its inode, size and change time. Any
 * later write, truncation, chmod or rename of the file moves its change time, which no user can
 * set, so a file that still has its stamp is the very file pybook wrote and need not be read to be
 * proven (manifest.ts). Stamps are kept outside the output folder (StampStore), never in it: what
 * is in the folder anyone may have written, and a time span written there proved files pybook never
 * wrote.
 */
export type FileStamp = [ino: string, size: string, ctimeNs: string];

/** The stamps of the files pybook wrote into one folder, by site path. */
export type WrittenStamps = Map<string, FileStamp>;

export function stampOf(file: string): FileStamp {
  return stampFromStats(lstatSync(file, { bigint: true }));
}

export function stampFromStats(stats: BigIntStats): FileStamp {
  return [String(stats.ino), String(stats.size), String(stats.ctimeNs)];
}

export function stampMatches(stamp: FileStamp, stats: BigIntStats): boolean {
  const now = stampFromStats(stats);
  return stamp[0] === now[0] && stamp[1] === now[1] && stamp[2] === now[2];
}

/** Where a process keeps the stamps of the folders it wrote, for the next one (pybook's build cache). */
export interface StampStore {
  load(dir: string): WrittenStamps | undefined;
  save(dir: string, stamps: WrittenStamps): void;
}

const isStamp = (value: unknown): value is FileStamp =>
  Array.isArray(value) && value.length === 3 && value.every((part) => typeof part === 'string' && /^\d+$/.test(part));

/** Stamps from their JSON form ({name: stamp}); entries that are not stamps are dropped (they only cost a hash). */
export function stampsFromJson(value: unknown): WrittenStamps {
  const stamps: WrittenStamps = new Map();
  if (typeof value !== 'object' || value === null) return stamps;
  for (const [name, stamp] of Object.entries(value)) if (isStamp(stamp)) stamps.set(name, stamp);
  return stamps;
}
