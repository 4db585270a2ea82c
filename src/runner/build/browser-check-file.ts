import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { BookConfig } from '../../shared/model/config.js';
import { assertFileOrFolder, assertFolderInsideProject, resolveInsideProject } from '../../output/static-files.js';
import { replaceFile } from '../../core/replace-file.js';

/**
 * Which examples passed in the reader's runtimes (Pyodide, the JavaScript sandbox): written by
 * `pybook check`, committed with the book, read by every build. A page offers Run only for an
 * example listed here, so it never offers a run whose output differs from the panel; an example
 * edited since the last check loses its button until the check runs again. A file, not a cache
 * entry: building the site never has to start Python.
 */
export const BROWSER_CHECK_FILE = 'checked-in-browser.json';

/**
 * Bump when the harness or the sandbox changes what a run does (python-harness.ts,
 * js-sandbox.ts): every example must then be checked again.
 */
export const RUNNER_REVISION = 3;

export interface BrowserCheckRecord {
  /** What the examples were checked with: results from other runtimes or fixtures do not count. */
  runtime: { pyodide: string; runner: number; fixtures: string };
  /** Keys (exampleKey) of the examples that passed. */
  passed: string[];
}

/** An example's identity for the record: its language, code and what the book shows for it. */
export function exampleKey(example: { lang: string; code: string; output?: string; raises?: string }): string {
  return createHash('sha256').update([example.lang, example.code, example.output ?? '\0', example.raises ?? '\0'].join('\u0001')).digest('hex').slice(0, 16);
}

/**
 * An exercise's identity for the record: its starter code, tests and answer. `pybook check` lists
 * it once the answer passed its tests and the starter failed them in Pyodide; a page offers Check
 * only then, as it offers Run only for examples that passed there.
 */
export function exerciseKey(exercise: { starter: string; tests: string; answer: string }): string {
  return exampleKey({ lang: 'exercise', code: [exercise.starter, exercise.tests, exercise.answer].join('\0') });
}

/**
 * An exercise's identity for the reader's progress: its tests only, which are the same in every
 * language (so an exercise solved in one language is solved in the other), and which decide what
 * "solved" means (so a solved exercise whose tests change is not solved any more).
 */
export function exerciseTestsKey(exercise: { tests: string }): string {
  return exampleKey({ lang: 'exercise-tests', code: exercise.tests });
}

/** The folder of the npm `pyodide` package (the runtime the site ships and the check runs). */
export function pyodideFolder(): string {
  return path.dirname(createRequire(import.meta.url).resolve('pyodide'));
}

const pyodidePackageFile = () => path.join(pyodideFolder(), 'package.json');

export function pyodideVersion(): string {
  return (JSON.parse(readFileSync(pyodidePackageFile(), 'utf8')) as { version: string }).version;
}

export const fixturesFolderOf = (config: BookConfig) => path.resolve(config.rootDir, config.contentDir, 'fixtures');

/** The book's fixtures (files examples read), sorted by name. */
export function fixtureFilesOf(config: BookConfig): Array<{ name: string; file: string }> {
  const folder = fixturesFolderOf(config);
  if (!existsSync(folder)) return [];
  assertFolderInsideProject(folder, config.rootDir, 'fixtures folder');
  // Fixtures are published with the site: the static files' rules hold (links stay inside the
  // project; FIFOs and devices are errors). Folders among them are not fixtures and are skipped.
  const fixtures = [];
  for (const name of readdirSync(folder).sort()) {
    const file = resolveInsideProject(path.join(folder, name), config.rootDir, 'fixture');
    const stats = statSync(file);
    assertFileOrFolder(stats, path.join(folder, name), 'fixture');
    if (stats.isFile()) fixtures.push({ name, file });
  }
  return fixtures;
}

export function currentRuntime(config: BookConfig): BrowserCheckRecord['runtime'] {
  const hash = createHash('sha256');
  for (const fixture of fixtureFilesOf(config)) hash.update(fixture.name).update('\0').update(readFileSync(fixture.file)).update('\0');
  return { pyodide: pyodideVersion(), runner: RUNNER_REVISION, fixtures: hash.digest('hex').slice(0, 16) };
}

const recordFileOf = (config: BookConfig) => path.resolve(config.rootDir, config.contentDir, BROWSER_CHECK_FILE);

export interface BrowserVerdicts {
  /** The record, relative to the working folder (for messages). */
  file: string;
  passed: ReadonlySet<string>;
  /** Why no example can be offered (no record, or one made with another runtime), for a build warning. */
  problem?: string;
}

/** Examples a page may offer to run: Python or JavaScript that runs under the check, and is not marked or pytest. */
export function isOfferedToRun(example: { lang: string; norun?: string; nobrowser?: string; pytest?: string }): boolean {
  return (example.lang === 'python' || example.lang === 'javascript') && example.norun === undefined && example.nobrowser === undefined && example.pytest === undefined;
}

/** The record as the build uses it. */
export function readBrowserVerdicts(config: BookConfig): BrowserVerdicts {
  const file = recordFileOf(config);
  const name = path.relative(process.cwd(), file);
  if (!existsSync(file)) return { file: name, passed: new Set(), problem: `${name} does not exist` };
  let record: BrowserCheckRecord;
  try {
    record = JSON.parse(readFileSync(file, 'utf8')) as BrowserCheckRecord;
  } catch (error) {
    return { file: name, passed: new Set(), problem: `${name} is not valid JSON (${(error as Error).message})` };
  }
  const now = currentRuntime(config);
  if (JSON.stringify(record.runtime) !== JSON.stringify(now)) {
    return { file: name, passed: new Set(), problem: `${name} was made with ${JSON.stringify(record.runtime)}, not the current ${JSON.stringify(now)}` };
  }
  return { file: name, passed: new Set(record.passed) };
}

/**
 * Updates the record after a check: the examples checked now replace what it said of them;
 * keys of examples the book no longer has are dropped when `bookKeys` (every example of the book) is given.
 */
export function updateBrowserCheckRecord(config: BookConfig, checked: Map<string, boolean>, bookKeys?: Set<string>): string {
  const file = recordFileOf(config);
  const runtime = currentRuntime(config);
  let passed = new Set<string>();
  try {
    const old = JSON.parse(readFileSync(file, 'utf8')) as BrowserCheckRecord;
    if (JSON.stringify(old.runtime) === JSON.stringify(runtime)) passed = new Set(old.passed);
  } catch {
    // no record yet, or an unreadable one: start afresh
  }
  for (const [key, ok] of checked) if (ok) passed.add(key); else passed.delete(key);
  if (bookKeys) for (const key of passed) if (!bookKeys.has(key)) passed.delete(key);
  const record: BrowserCheckRecord = { runtime, passed: [...passed].sort() };
  const json = `${JSON.stringify(record, null, 2)}\n`;
  // A new file renamed into place: a link put there (to ~/.bashrc, say) is replaced, never written through.
  replaceFile(file, json);
  return file;
}
