import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { MARKER_FILE } from '../output/marker.js';

/**
 * Which files of the site pybook named by their content, read from the output folder's marker
 * (see output/marker.ts): only those may be cached by browsers for good. A file an author put in
 * the static folder keeps its name across edits (`diagram-FLOWCHART.svg`), so it is revalidated,
 * however much its name looks like a hash. The list is read again when the marker changes.
 */
export class ContentNamedFiles {
  private names = new Set<string>();
  private seen = '';

  constructor(private readonly rootRealPath: string) {}

  /** @param relativePath a file's path in the site folder, with `/` separators. */
  has(relativePath: string): boolean {
    this.refresh();
    return this.names.has(relativePath);
  }

  private refresh(): void {
    const marker = path.join(this.rootRealPath, MARKER_FILE);
    let version: string;
    try {
      const stats = statSync(marker);
      version = `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
    } catch {
      version = 'none';
    }
    if (version === this.seen) return;
    this.seen = version;
    try {
      const parsed = JSON.parse(readFileSync(marker, 'utf8')) as { contentNamed?: unknown };
      this.names = new Set(
        Array.isArray(parsed.contentNamed) ? parsed.contentNamed.filter((n): n is string => typeof n === 'string') : [],
      );
    } catch {
      this.names = new Set();
    }
  }
}
