/**
 * The reader's work and progress in this browser's localStorage, and nowhere else: the code of
 * each example they edited, each exercise's last Check, the chapter they read last. Keys are
 * scoped by the site's base path, so two books on one origin keep their readers' work apart:
 *
 *   pybook<base>code/<slug>   {<block key>: {code, at}}
 *   pybook<base>dropped/<slug> [{code, at}]   edits whose example the book has since changed
 *   pybook<base>exercises     {<slug>: {at, passed, tests}}
 *   pybook<base>last          {slug, at}
 *
 * What is read back is checked as an imported file is (learner-data.ts): an entry that does not
 * fit is ignored, never trusted. Writes can fail (storage full or disabled): they say so.
 */
import {
  checkLearnerData,
  mergeLearnerData,
  type ExerciseResult,
  type LearnerData,
  type SavedCode,
} from '../shared/learner-data.js';
import { LEARNER_CHANGE as CHANGED, storeScope } from '../shared/keys.js';

/** Told when this tab or another one changed the reader's data. */
export type StoreListener = () => void;

function read(key: string): unknown {
  try {
    const text = localStorage.getItem(key);
    return text === null ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function write(key: string, value: unknown): boolean {
  try {
    if (value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

/** The stored value of one part, checked; undefined when missing or not of the right shape. */
function checked<T>(value: unknown, pick: (data: LearnerData) => T): T | undefined {
  try {
    return pick(checkLearnerData(value));
  } catch {
    return undefined;
  }
}

export class LearnerStore {
  private readonly scope: string;

  /** `locale`: the page's language, recorded with each edit. */
  constructor(
    basePath: string,
    readonly locale: string,
  ) {
    this.scope = storeScope(basePath);
  }

  private key(part: string): string {
    return this.scope + part;
  }

  private changed(): void {
    window.dispatchEvent(new Event(CHANGED));
  }

  /** The reader's code on a chapter's examples, by block key. */
  codeOf(slug: string): Record<string, SavedCode> {
    return checked({ code: { [slug]: read(this.key(`code/${slug}`)) } }, (d) => d.code[slug]) ?? {};
  }

  /** Keeps (or, with undefined, forgets) the reader's code of one example; false if the browser refused. */
  saveCode(slug: string, blockKey: string, code: string | undefined): boolean {
    const blocks = { ...this.codeOf(slug) };
    if (code === undefined) delete blocks[blockKey];
    else blocks[blockKey] = { code, at: Date.now(), locale: this.locale };
    const ok = write(this.key(`code/${slug}`), Object.keys(blocks).length ? blocks : undefined);
    this.changed();
    return ok;
  }

  /** Edits of a chapter whose examples the book changed since: kept until the reader dismisses them. */
  droppedOf(slug: string): SavedCode[] {
    const value = read(this.key(`dropped/${slug}`));
    if (!Array.isArray(value)) return [];
    return value.flatMap(
      (entry, i) =>
        checked({ code: { [slug]: { [`d${i}`]: entry as unknown } } }, (d) => Object.values(d.code[slug])) ?? [],
    );
  }

  /** Moves the edits of `keys` (no longer examples of the chapter) to its dropped list. */
  drop(slug: string, keys: string[]): void {
    const blocks = { ...this.codeOf(slug) };
    const dropped = this.droppedOf(slug);
    for (const key of keys) {
      if (blocks[key]) dropped.push(blocks[key]);
      delete blocks[key];
    }
    write(this.key(`code/${slug}`), Object.keys(blocks).length ? blocks : undefined);
    write(this.key(`dropped/${slug}`), dropped.length ? dropped : undefined);
    this.changed();
  }

  dismissDropped(slug: string): void {
    write(this.key(`dropped/${slug}`), undefined);
    this.changed();
  }

  /** Each exercise's last Check, by chapter slug. */
  exercises(): Record<string, ExerciseResult> {
    return checked({ exercises: read(this.key('exercises')) }, (d) => d.exercises) ?? {};
  }

  /** Keeps the outcome of a Check: solved when every test passed, not solved (again) otherwise. */
  recordCheck(slug: string, tests: string, passed: boolean): boolean {
    const ok = write(this.key('exercises'), {
      ...this.exercises(),
      [slug]: { at: Date.now(), passed, tests } satisfies ExerciseResult,
    });
    this.changed();
    return ok;
  }

  last(): LearnerData['last'] {
    return checked({ last: read(this.key('last')) }, (d) => d.last);
  }

  /** Everything, as one object (what Export writes to a file). */
  exportData(): LearnerData {
    const code: LearnerData['code'] = {};
    const prefix = this.key('code/');
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(prefix)) {
        const slug = key.slice(prefix.length);
        const blocks = this.codeOf(slug);
        if (Object.keys(blocks).length) code[slug] = blocks;
      }
    }
    const last = this.last();
    return { code, exercises: this.exercises(), ...(last ? { last } : {}) };
  }

  /** Adds a file's data to this browser's (the newer of each entry wins); false if the browser refused. */
  importData(data: LearnerData): boolean {
    const merged = mergeLearnerData(this.exportData(), data);
    let ok = true;
    for (const [slug, blocks] of Object.entries(merged.code)) ok = write(this.key(`code/${slug}`), blocks) && ok;
    ok = write(this.key('exercises'), merged.exercises) && ok;
    if (merged.last) ok = write(this.key('last'), merged.last) && ok;
    this.changed();
    return ok;
  }

  /** Forgets the reader's code of every example (the book's code is shown again). */
  resetAllCode(): void {
    for (const key of this.ownKeys())
      if (key.startsWith(this.key('code/')) || key.startsWith(this.key('dropped/'))) write(key, undefined);
    this.changed();
  }

  /** Forgets everything: code, exercises and the last chapter. */
  clearAll(): void {
    for (const key of this.ownKeys()) write(key, undefined);
    this.changed();
  }

  private ownKeys(): string[] {
    const keys: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(this.scope) && /^(code|dropped)\/|^(exercises|last)$/.test(key.slice(this.scope.length)))
        keys.push(key);
    }
    return keys;
  }

  /** Calls `listener` when the data changes, in this tab or another; gives back the unsubscribe. */
  subscribe(listener: StoreListener): () => void {
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key.startsWith(this.scope)) listener();
    };
    window.addEventListener(CHANGED, listener);
    window.addEventListener('storage', onStorage);
    return () => {
      window.removeEventListener(CHANGED, listener);
      window.removeEventListener('storage', onStorage);
    };
  }
}
