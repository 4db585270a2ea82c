import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The files of a site, relative path -> contents, written in one go. */
export type SiteFiles = Map<string, string | Uint8Array>;

/**
 * Writes the site into a fresh sibling folder and swaps it in at the end, so a failed build
 * never leaves a half-written or emptied output folder behind.
 */
export function writeSiteAtomically(outDir: string, files: SiteFiles, staticDirs: string[]): void {
  const target = path.resolve(outDir);
  const staging = `${target}.staging-${process.pid}`;
  const retired = `${target}.previous-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    mkdirSync(staging, { recursive: true });
    for (const dir of staticDirs) if (existsSync(dir)) cpSync(dir, staging, { recursive: true });
    // Sorted so that the write order (and any error) is the same on every run.
    for (const name of [...files.keys()].sort()) {
      const file = path.join(staging, name);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, files.get(name)!);
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  if (existsSync(target)) renameSync(target, retired);
  renameSync(staging, target);
  rmSync(retired, { recursive: true, force: true });
}
