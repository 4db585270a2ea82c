import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const hashText = (...parts: Array<string | Uint8Array>) => {
  const h = createHash('sha256');
  for (const part of parts) h.update(part).update('\0');
  return h.digest('hex');
};

/**
 * A fingerprint of the code under a folder of this package (e.g. the markdown pipeline): cached
 * results made by other code must never be reused, also while pybook itself is being developed.
 */
export function codeFingerprint(...folders: string[]): string {
  const parts: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.(js|ts|tsx|json)$/.test(name)) parts.push(name, readFileSync(file, 'utf8'));
    }
  };
  for (const folder of folders) walk(fileURLToPath(new URL(`../${folder}/`, import.meta.url)));
  const lock = fileURLToPath(new URL('../../package-lock.json', import.meta.url));
  if (existsSync(lock)) parts.push(readFileSync(lock, 'utf8'));
  return hashText(...parts).slice(0, 16);
}

/**
 * Results of earlier builds kept on disk (node_modules/.cache/pybook), keyed by a hash of
 * everything they were made from, so a build redoes only what changed since the last one.
 */
export class DiskCache {
  private used = new Map<string, Set<string>>();

  constructor(private readonly dir: string | undefined) {}

  /** False for `--no-cache`: nothing is read or written, so callers can skip making keys. */
  get enabled(): boolean {
    return this.dir !== undefined;
  }

  static forBook(rootDir: string, enabled: boolean): DiskCache {
    if (!enabled) return new DiskCache(undefined);
    const modules = path.join(rootDir, 'node_modules');
    return new DiskCache(existsSync(modules) ? path.join(modules, '.cache', 'pybook') : path.join(rootDir, '.pybook-cache'));
  }

  private file(namespace: string, key: string): string {
    return path.join(this.dir!, namespace, key);
  }

  read(namespace: string, key: string): Buffer | undefined {
    if (!this.dir) return undefined;
    this.markUsed(namespace, key);
    try {
      return readFileSync(this.file(namespace, key));
    } catch {
      return undefined;
    }
  }

  readJson<T>(namespace: string, key: string): T | undefined {
    const data = this.read(namespace, key);
    if (!data) return undefined;
    try {
      return JSON.parse(data.toString('utf8')) as T;
    } catch {
      return undefined; // a damaged entry is simply rebuilt
    }
  }

  /** Writes waiting for flush(), when deferred (see deferWrites). */
  private queued?: Array<() => void>;

  /**
   * From now on writes (and the JSON they serialise) wait for flush(): watch mode serves its
   * pages, and shows an edit, before it spends time on the cache.
   */
  deferWrites(): void {
    this.queued ??= [];
  }

  /** Writes what deferWrites() held back. */
  flush(): void {
    const queued = this.queued ?? [];
    if (this.queued) this.queued = [];
    for (const write of queued) write();
  }

  write(namespace: string, key: string, contents: string | Uint8Array): void {
    this.writeLater(namespace, key, () => contents);
  }

  writeJson(namespace: string, key: string, value: unknown): void {
    this.writeLater(namespace, key, () => JSON.stringify(value));
  }

  private writeLater(namespace: string, key: string, contents: () => string | Uint8Array): void {
    if (!this.dir) return;
    this.markUsed(namespace, key);
    if (this.queued) this.queued.push(() => this.writeNow(namespace, key, contents()));
    else this.writeNow(namespace, key, contents());
  }

  private writeNow(namespace: string, key: string, contents: string | Uint8Array): void {
    const file = this.file(namespace, key);
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, contents);
      renameSync(temporary, file);
    } catch {
      // A read-only or full disk only costs speed.
    }
  }

  /** Deletes the entries of a namespace this build did not use, so the cache does not grow forever. */
  prune(namespace: string): void {
    if (!this.dir) return;
    const folder = path.join(this.dir, namespace);
    const keep = this.used.get(namespace) ?? new Set<string>();
    if (!existsSync(folder)) return;
    for (const name of readdirSync(folder)) if (!keep.has(name)) rmSync(path.join(folder, name), { force: true, recursive: true });
  }

  /** Deletes the entries of a namespace whose names match, used by this build or not. */
  removeWhere(namespace: string, match: (name: string) => boolean): void {
    if (!this.dir) return;
    const folder = path.join(this.dir, namespace);
    if (!existsSync(folder)) return;
    for (const name of readdirSync(folder)) if (match(name)) rmSync(path.join(folder, name), { force: true, recursive: true });
  }

  private markUsed(namespace: string, key: string): void {
    let set = this.used.get(namespace);
    if (!set) this.used.set(namespace, (set = new Set()));
    set.add(key);
  }
}
