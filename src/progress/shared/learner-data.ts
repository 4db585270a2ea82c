/**
 * The reader's work and progress, as the browser keeps it and as a reader exports it to a file:
 * the code they edited (per chapter, per example), their exercises' last Check, and the chapter
 * they read last. Shared by the page (progress/client/store.ts) and the tests.
 *
 * A file a reader imports is data from anywhere: `parseLearnerFile` accepts only this shape, with
 * names the book could have made (chapter slugs, block keys), bounded sizes and no keys that
 * JavaScript objects treat specially, and says which field is wrong otherwise.
 */

/** The `format` field of an exported file. */
export const LEARNER_FILE_FORMAT = 'pybook-learner-data';
export const LEARNER_FILE_VERSION = 1;

/**
 * One example's code as the reader left it; `at` is when (ms since 1970), `locale` the language of
 * the page it was edited on (an example whose code is the same in both languages shares the edit;
 * one the other language writes differently is not this page's to drop).
 */
export interface SavedCode {
  code: string;
  at: number;
  locale?: string;
}

/**
 * The last Check of an exercise: when, whether every test passed, and which version of the tests
 * it ran (an exercise whose tests changed since is not solved yet).
 */
export interface ExerciseResult {
  at: number;
  passed: boolean;
  tests: string;
}

export interface LearnerData {
  /** Chapter slug -> block key (progress/client/block-keys.ts) -> the reader's code. */
  code: Record<string, Record<string, SavedCode>>;
  /** Chapter slug -> the last Check of its exercise. */
  exercises: Record<string, ExerciseResult>;
  /** The chapter the reader read last. */
  last?: { slug: string; at: number };
}

/** What an export file holds (JSON). */
export interface LearnerFile extends LearnerData {
  format: typeof LEARNER_FILE_FORMAT;
  version: typeof LEARNER_FILE_VERSION;
  /** The site it came from (its title), for the reader's eyes only. */
  site: string;
  exported: string;
}

/** A chapter slug, as the book's configuration allows them (src/book/load-book.ts). */
export const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** A block key: the hash of the book's code, and its occurrence when the same code appears again. */
export const BLOCK_KEY = /^[0-9a-z]{1,16}(-[1-9][0-9]{0,3})?$/;
/** A locale code as the configuration allows them ("en", "zh-cn"). */
const LOCALE = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/;
/** An exercise's tests hash (the build's exerciseTestsKey). */
const TESTS_KEY = /^[0-9a-f]{8,64}$/;

export const LIMITS = {
  /** Characters of one example's code. */
  codeChars: 200_000,
  /** Characters of a whole file (localStorage holds about 5 MB per site). */
  fileChars: 4_000_000,
  chapters: 1000,
  blocksPerChapter: 1000,
  slugChars: 100,
};

export class LearnerFileError extends Error {
  constructor(
    /** Where in the file: `code.dictionary.k3f9` or `(file)`. */
    readonly field: string,
    reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = 'LearnerFileError';
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A time in ms since 1970, not in the far future (a day of clock skew is allowed). */
function time(value: unknown, field: string, now: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > now + 86_400_000)
    throw new LearnerFileError(field, 'is not a time');
  return value;
}

/** An object's own keys, each checked against `pattern`; at most `max` of them. */
function keysOf(value: Record<string, unknown>, pattern: RegExp, max: number, field: string): string[] {
  const keys = Object.keys(value);
  if (keys.length > max) throw new LearnerFileError(field, `has more than ${max} entries`);
  for (const key of keys)
    if (key.length > LIMITS.slugChars || !pattern.test(key))
      throw new LearnerFileError(
        `${field}.${JSON.stringify(key).slice(1, -1).slice(0, 40)}`,
        'is not a name the book uses',
      );
  return keys;
}

function objectAt(value: unknown, field: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw new LearnerFileError(field, 'is not an object');
  return value;
}

/**
 * The learner data in `value` (parsed JSON), checked field by field; throws LearnerFileError
 * naming the first wrong field. The result is made of fresh prototype-less objects.
 */
export function checkLearnerData(value: unknown, now = Date.now()): LearnerData {
  const root = objectAt(value, '(file)');
  const code: LearnerData['code'] = Object.create(null) as LearnerData['code'];
  const codeField = objectAt(root.code === undefined ? {} : root.code, 'code');
  for (const slug of keysOf(codeField, SLUG, LIMITS.chapters, 'code')) {
    const blocks = objectAt(codeField[slug], `code.${slug}`);
    const kept: Record<string, SavedCode> = Object.create(null) as Record<string, SavedCode>;
    for (const key of keysOf(blocks, BLOCK_KEY, LIMITS.blocksPerChapter, `code.${slug}`)) {
      const field = `code.${slug}.${key}`;
      const saved = objectAt(blocks[key], field);
      if (typeof saved.code !== 'string') throw new LearnerFileError(`${field}.code`, 'is not text');
      if (saved.code.length > LIMITS.codeChars)
        throw new LearnerFileError(`${field}.code`, `is longer than ${LIMITS.codeChars} characters`);
      kept[key] = { code: saved.code, at: time(saved.at, `${field}.at`, now) };
      if (saved.locale !== undefined) {
        if (typeof saved.locale !== 'string' || !LOCALE.test(saved.locale))
          throw new LearnerFileError(`${field}.locale`, 'is not a language of the book');
        kept[key].locale = saved.locale;
      }
    }
    code[slug] = kept;
  }
  const exercises: LearnerData['exercises'] = Object.create(null) as LearnerData['exercises'];
  const exercisesField = objectAt(root.exercises === undefined ? {} : root.exercises, 'exercises');
  for (const slug of keysOf(exercisesField, SLUG, LIMITS.chapters, 'exercises')) {
    const field = `exercises.${slug}`;
    const entry = objectAt(exercisesField[slug], field);
    if (typeof entry.tests !== 'string' || !TESTS_KEY.test(entry.tests))
      throw new LearnerFileError(`${field}.tests`, 'is not a tests key');
    if (typeof entry.passed !== 'boolean') throw new LearnerFileError(`${field}.passed`, 'is not true or false');
    exercises[slug] = { at: time(entry.at, `${field}.at`, now), passed: entry.passed, tests: entry.tests };
  }
  const data: LearnerData = { code, exercises };
  if (root.last !== undefined) {
    const last = objectAt(root.last, 'last');
    if (typeof last.slug !== 'string' || last.slug.length > LIMITS.slugChars || !SLUG.test(last.slug))
      throw new LearnerFileError('last.slug', 'is not a name the book uses');
    data.last = { slug: last.slug, at: time(last.at, 'last.at', now) };
  }
  return data;
}

/** Reads an exported file's text; throws LearnerFileError (naming the field) when it is not one. */
export function parseLearnerFile(text: string, now = Date.now()): LearnerData {
  if (text.length > LIMITS.fileChars) throw new LearnerFileError('(file)', 'is too large to be a progress file');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new LearnerFileError('(file)', 'is not JSON');
  }
  const root = objectAt(value, '(file)');
  if (root.format !== LEARNER_FILE_FORMAT) throw new LearnerFileError('format', `is not "${LEARNER_FILE_FORMAT}"`);
  if (root.version !== LEARNER_FILE_VERSION)
    throw new LearnerFileError('version', `is not ${LEARNER_FILE_VERSION} (a newer pybook wrote it?)`);
  return checkLearnerData(root, now);
}

/** The file a reader exports. */
export function learnerFile(data: LearnerData, site: string, now = new Date()): LearnerFile {
  return { format: LEARNER_FILE_FORMAT, version: LEARNER_FILE_VERSION, site, exported: now.toISOString(), ...data };
}

const newer = <T extends { at: number }>(a: T | undefined, b: T | undefined): T | undefined =>
  !a ? b : !b ? a : b.at > a.at ? b : a;

/**
 * The record's own entry under `key`, never one it inherits: a key is data (an example's key may
 * be any short base-36 word, "constructor" too), and a side that lacks a chapter must not lend the
 * merge Object.prototype's members.
 */
const own = <T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined =>
  record && Object.hasOwn(record, key) ? record[key] : undefined;

/**
 * Two browsers' data as one: for every example, exercise and the last chapter, the newer of the
 * two wins, so importing an older file never overwrites newer work (nor a newer failed Check).
 */
export function mergeLearnerData(a: LearnerData, b: LearnerData): LearnerData {
  const code: LearnerData['code'] = Object.create(null) as LearnerData['code'];
  for (const slug of new Set([...Object.keys(a.code), ...Object.keys(b.code)])) {
    const blocks: Record<string, SavedCode> = Object.create(null) as Record<string, SavedCode>;
    const mine = own(a.code, slug);
    const theirs = own(b.code, slug);
    for (const key of new Set([...Object.keys(mine ?? {}), ...Object.keys(theirs ?? {})]))
      blocks[key] = newer(own(mine, key), own(theirs, key))!;
    code[slug] = blocks;
  }
  const exercises: LearnerData['exercises'] = Object.create(null) as LearnerData['exercises'];
  for (const slug of new Set([...Object.keys(a.exercises), ...Object.keys(b.exercises)]))
    exercises[slug] = newer(own(a.exercises, slug), own(b.exercises, slug))!;
  const last = newer(a.last, b.last);
  return last ? { code, exercises, last } : { code, exercises };
}
