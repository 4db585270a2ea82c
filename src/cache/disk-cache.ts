import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stampsFromJson, type StampStore, type WrittenStamps } from '../output/written-stamps.js';
import { replaceFile } from '../core/replace-file.js';

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
 * The build cache's namespaces, each a folder of its own, with what it keeps and where. A name
 * outside this list is a type error: one module cannot read what another keeps, by a typo.
 */
export const CACHE_NAMESPACES = {
  chapters: 'compiled chapters (generator/steps/compile-chapters.ts)',
  search: "search indexes: `pybook build`'s, and watch mode's latest as `dev-` (generator/steps/search-indexes.ts)",
  client: 'the client bundle (bundler/bundle-client.ts)',
  runner: "the runner's workers (bundler/bundle-workers.ts)",
  offline: 'the service worker, one per esbuild version (offline/node/worker-script.ts)',
  'build-content': "`pybook build`'s content HTML per chapter (generator/steps/render-pages.ts)",
  'build-documents': "`pybook build`'s documents per chapter (generator/steps/render-pages.ts)",
  content: "watch mode's content HTML per chapter, from its start (generator/steps/render-pages.ts)",
  documents: "watch mode's documents per chapter, from its start (generator/steps/render-pages.ts)",
  modules: "watch mode's route modules, from its start (generator/steps/render-pages.ts)",
  precompressed: 'gzip and brotli siblings of the site files (generator/precompress.ts)',
  written: 'the stamps of the files a build wrote, per output folder (output/written-stamps.ts)',
} as const;
export type CacheNamespace = keyof typeof CACHE_NAMESPACES;

/** An entry that a result was read from or written as (see DiskCache.keep). */
export interface CacheEntry {
  namespace: CacheNamespace;
  key: string;
  contents: string | Uint8Array;
}

/** The names the cache makes: namespaces and keys are single plain names (hex, or words with dots and dashes). */
const CACHE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

function assertCacheName(name: string, what: string): void {
  if (!CACHE_NAME.test(name) || name.includes('..'))
    throw new Error(`pybook's build cache makes no ${what} named ${JSON.stringify(name)}`);
}

/**
 * Where a book's cache lives: node_modules/.cache/pybook when the book has node_modules (as npm
 * tools do), else the user's cache folder ($XDG_CACHE_HOME or ~/.cache), in a folder named after
 * the book's path. Never a folder of the book's own, which a repository could ship with entries
 * (rendered HTML, say) that the build would then trust.
 */
export function cacheFolderOf(rootDir: string): { base: string; parts: string[] } {
  const modules = path.join(rootDir, 'node_modules');
  if (existsSync(modules)) return { base: modules, parts: ['.cache', 'pybook'] };
  const userCache =
    process.env.XDG_CACHE_HOME && path.isAbsolute(process.env.XDG_CACHE_HOME)
      ? process.env.XDG_CACHE_HOME
      : path.join(os.homedir(), '.cache');
  let real: string;
  try {
    real = realpathSync(rootDir);
  } catch {
    real = path.resolve(rootDir);
  }
  return { base: userCache, parts: ['pybook', hashText(real).slice(0, 24)] };
}

/**
 * Makes `base/parts…` as real folders, one level at a time: a part that is a link or a file means
 * the cache is not where pybook made it, and the cache is not used (undefined).
 */
function realFolder(base: string, parts: string[]): string | undefined {
  let at = base;
  for (const part of parts) {
    at = path.join(at, part);
    try {
      mkdirSync(at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
    if (!lstatSync(at).isDirectory()) return undefined;
  }
  return at;
}

/**
 * Results of earlier builds kept on disk, keyed by a hash of everything they were made from, so a
 * build redoes only what changed since the last one. The cache touches only the names it makes:
 * each namespace is a real folder of its own (a link put in its place is replaced by a folder),
 * each entry a plain file written to a temporary name and renamed (never through a link), and
 * pruning deletes entries one by one, never a folder and never recursively.
 */
export class DiskCache {
  private used = new Map<CacheNamespace, Set<string>>();
  private readyNamespaces = new Set<CacheNamespace>();

  constructor(private readonly dir: string | undefined) {}

  /** False for `--no-cache` (or a cache that is not where pybook made it): nothing is read or written. */
  get enabled(): boolean {
    return this.dir !== undefined;
  }

  static forBook(rootDir: string, enabled: boolean): DiskCache {
    if (!enabled) return new DiskCache(undefined);
    const { base, parts } = cacheFolderOf(rootDir);
    if (!existsSync(base)) {
      try {
        mkdirSync(base, { recursive: true });
      } catch {
        return new DiskCache(undefined);
      }
    }
    const dir = realFolder(base, parts);
    if (!dir)
      process.stderr.write(
        `warning: not using the build cache: ${path.join(base, ...parts)} is a link or a file, not a folder pybook made\n`,
      );
    return new DiskCache(dir);
  }

  /** The namespace's folder, made (or made again in place of a link or a file) on first use. */
  private namespaceFolder(namespace: CacheNamespace): string {
    assertCacheName(namespace, 'namespace');
    const folder = path.join(this.dir!, namespace);
    if (this.readyNamespaces.has(namespace)) return folder;
    let stats;
    try {
      stats = lstatSync(folder);
    } catch {
      // not there yet
    }
    if (stats && !stats.isDirectory()) unlinkSync(folder); // a link (or a file) in the cache's own place: the name only
    if (!stats?.isDirectory()) mkdirSync(folder);
    this.readyNamespaces.add(namespace);
    return folder;
  }

  private file(namespace: CacheNamespace, key: string): string {
    assertCacheName(key, 'entry');
    return path.join(this.namespaceFolder(namespace), key);
  }

  read(namespace: CacheNamespace, key: string): Buffer | undefined {
    if (!this.dir) return undefined;
    this.markUsed(namespace, key);
    try {
      const file = this.file(namespace, key);
      // An entry is a plain file the cache wrote: a link in its place is not followed.
      return lstatSync(file).isFile() ? readFileSync(file) : undefined;
    } catch {
      return undefined;
    }
  }

  readJson<T>(namespace: CacheNamespace, key: string): T | undefined {
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

  write(namespace: CacheNamespace, key: string, contents: string | Uint8Array): void {
    this.writeLater(namespace, key, () => contents);
  }

  writeJson(namespace: CacheNamespace, key: string, value: unknown): void {
    this.writeLater(namespace, key, () => JSON.stringify(value));
  }

  private writeLater(namespace: CacheNamespace, key: string, contents: () => string | Uint8Array): void {
    if (!this.dir) return;
    this.markUsed(namespace, key);
    if (this.queued) this.queued.push(() => this.writeNow(namespace, key, contents()));
    else this.writeNow(namespace, key, contents());
  }

  private writeNow(namespace: CacheNamespace, key: string, contents: string | Uint8Array): void {
    try {
      replaceFile(this.file(namespace, key), contents);
    } catch {
      // A read-only or full disk only costs speed.
    }
  }

  /**
   * Keeps the entries of a result that was read or made once and is then reused without the cache
   * (a bundle made once per process, say): this build uses them, so pruning keeps them, and an
   * entry the cache has lost meanwhile is written again.
   */
  keep(entries: readonly CacheEntry[]): void {
    if (!this.dir) return;
    for (const { namespace, key, contents } of entries) {
      this.markUsed(namespace, key);
      if (!existsSync(this.file(namespace, key))) this.write(namespace, key, contents);
    }
  }

  /** Deletes the entries of a namespace this build did not use, so the cache does not grow forever. */
  prune(namespace: CacheNamespace): void {
    const keep = this.used.get(namespace) ?? new Set<string>();
    this.removeWhere(namespace, (name) => !keep.has(name));
  }

  /**
   * Deletes the entries of a namespace whose names match, used by this build or not: plain files
   * and links by their own name; anything else (a folder) is not the cache's and stays.
   */
  removeWhere(namespace: CacheNamespace, match: (name: string) => boolean): void {
    if (!this.dir || !existsSync(path.join(this.dir, namespace))) return;
    const folder = this.namespaceFolder(namespace);
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (!match(entry.name) || entry.isDirectory()) continue;
      try {
        unlinkSync(path.join(folder, entry.name));
      } catch {
        // gone meanwhile
      }
    }
  }

  /** The cache's store of the stamps of the files a build wrote (see output/written-stamps.ts). */
  stampStore(): StampStore | undefined {
    if (!this.dir) return undefined;
    const keyOf = (dir: string) => `${hashText(path.resolve(dir)).slice(0, 32)}.json`;
    return {
      load: (dir) => {
        const stored = this.readJson<unknown>('written', keyOf(dir));
        return stored === undefined ? undefined : stampsFromJson(stored);
      },
      save: (dir: string, stamps: WrittenStamps) => this.writeJson('written', keyOf(dir), Object.fromEntries(stamps)),
    };
  }

  private markUsed(namespace: CacheNamespace, key: string): void {
    let set = this.used.get(namespace);
    if (!set) this.used.set(namespace, (set = new Set()));
    set.add(key);
  }
}
