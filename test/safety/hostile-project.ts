/**
 * Throwaway projects for the safety properties: a small book in a sandbox folder, with victims
 * around it (files outside the project that hold a secret), and the attacks fast-check generates
 * on them: hostile names in manifests and journals, planted leftover folders, links where folders
 * and files belong, hostile config paths. `snapshot` reads everything an attack must not change.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { chapter, fixtureConfig } from '../fixtures/fixture-book.js';

export interface HostileProject {
  sandbox: string;
  project: string;
  configPath: string;
  outDir: string;
  /** Files outside the project, each holding this run's secret. */
  outside: string;
  secret: string;
  remove(): void;
}

export function createHostileProject(options: { withNodeModules: boolean }): HostileProject {
  const sandbox = mkdtempSync(path.join(os.tmpdir(), 'pybook-hostile-'));
  const secret = `SECRET-${createHash('sha1').update(sandbox).digest('hex').slice(0, 12)}`;
  const outside = path.join(sandbox, 'outside');
  mkdirSync(path.join(outside, 'dir', 'deeper'), { recursive: true });
  writeFileSync(path.join(outside, 'secret.txt'), `${secret} in a file outside the project\n`);
  writeFileSync(path.join(outside, 'dir', 'notes.md'), `${secret}: notes\n`);
  writeFileSync(path.join(outside, 'dir', 'deeper', 'thesis.tex'), `${secret}: thesis\n`);
  const project = path.join(sandbox, 'project');
  for (const [locale, title] of [
    ['en', 'Intro'],
    ['zh-cn', '介绍'],
  ]) {
    mkdirSync(path.join(project, 'book', locale), { recursive: true });
    writeFileSync(
      path.join(project, 'book', locale, 'intro.mdx'),
      chapter(title, '## Start\n\nHello.\n\n```python\nprint(1)\n```'),
    );
  }
  mkdirSync(path.join(project, 'book', 'static', 'img'), { recursive: true });
  writeFileSync(path.join(project, 'book', 'static', 'img', 'logo.txt'), 'a static file of the book\n');
  mkdirSync(path.join(project, 'book', 'fixtures'), { recursive: true });
  writeFileSync(path.join(project, 'book', 'fixtures', 'data.json'), '{"ok": true}\n');
  if (options.withNodeModules) mkdirSync(path.join(project, 'node_modules'), { recursive: true });
  const configPath = path.join(project, 'book.config.json');
  writeFileSync(
    configPath,
    `${JSON.stringify(fixtureConfig([{ type: 'category', label: 'Chapters', items: ['intro'] }]), null, 2)}\n`,
  );
  return {
    sandbox,
    project,
    configPath,
    outDir: path.join(project, 'site'),
    outside,
    secret,
    remove: () => rmSync(sandbox, { recursive: true, force: true }),
  };
}

/** Every file and link below `dir` (not following links), by relative path: its bytes' hash, or its link target. */
export function snapshot(dir: string, skip: (relative: string) => boolean = () => false): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (relative: string) => {
    let entries;
    try {
      entries = readdirSync(path.join(dir, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (skip(name)) continue;
      const full = path.join(dir, name);
      if (entry.isSymbolicLink()) found.set(name, `link -> ${readlinkSync(full)}`);
      else if (entry.isDirectory()) walk(name);
      else if (entry.isFile()) found.set(name, createHash('sha1').update(readFileSync(full)).digest('hex'));
      else found.set(name, 'special');
    }
  };
  walk('');
  return found;
}

const sha1 = (bytes: Buffer | string) => createHash('sha1').update(bytes).digest('hex');

/** Stands for the absolute path of the sandbox's outside folder in a generated name (it differs per run). */
export const OUTSIDE = '<outside>';

/** Names a manifest or journal could hold: plain ones, and every way out of a folder. */
export function hostileName(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      '../outside/secret.txt',
      '../../outside/secret.txt',
      '../book.config.json',
      `${OUTSIDE}/secret.txt`,
      'a/../../book.config.json',
      'a//b',
      'a\\..\\..\\book.config.json',
      '.',
      '..',
      '',
      'x\u0000y',
      './index.html',
      'index.html',
      'img/logo.txt',
      '../project/book/en/intro.mdx',
      'assets/../../outside/dir/notes.md',
    ),
    fc
      .array(fc.constantFrom('..', '.', '', 'outside', 'secret.txt', 'dir', 'notes.md', 'site', 'index.html'), {
        minLength: 1,
        maxLength: 5,
      })
      .map((parts) => parts.join('/')),
    fc
      .array(fc.constantFrom('..', 'outside', 'dir', 'notes.md'), { minLength: 1, maxLength: 4 })
      .map((parts) => `/${parts.join('/')}`),
  );
}

const resolveName = (project: HostileProject, name: string) => name.replaceAll(OUTSIDE, project.outside);

/** A manifest or journal entry for `name`: with the real size and SHA-1 of the file it aims at when there is one (the strongest claim). */
export function entryFor(base: string, name: string): [number, string] {
  const target = path.resolve(base, name.replace(/\\/g, '/'));
  try {
    if (lstatSync(target).isFile()) {
      const bytes = readFileSync(target);
      return [bytes.length, sha1(bytes)];
    }
  } catch {
    // nothing there
  }
  return [1, '0'.repeat(40)];
}

/** A process id no process has: a leftover folder named with it counts as left by a dead build. */
export const DEAD_PID = 99_999_990;

export interface Attacks {
  prebuilt: boolean;
  manifestNames: string[];
  journalNames: string[];
  previous: 'none' | 'planted-proven' | 'planted-hostile';
  removeSite: boolean;
  links: Array<
    | 'site-folder-link'
    | 'site-file-link'
    | 'static-folder-link'
    | 'static-file-link'
    | 'fixtures-folder-link'
    | 'cache-namespace-link'
    | 'cache-root-link'
    | 'out-dir-link'
  >;
  userFiles: Array<{ name: string; text: string }>;
  config: 'plain' | 'static-outside' | 'static-absolute' | 'content-outside';
}

export function attacks(): fc.Arbitrary<Attacks> {
  return fc.record({
    prebuilt: fc.boolean(),
    manifestNames: fc.array(hostileName(), { maxLength: 4 }),
    journalNames: fc.array(hostileName(), { maxLength: 4 }),
    previous: fc.constantFrom('none' as const, 'planted-proven' as const, 'planted-hostile' as const),
    removeSite: fc.boolean(),
    links: fc.subarray(
      [
        'site-folder-link',
        'site-file-link',
        'static-folder-link',
        'static-file-link',
        'fixtures-folder-link',
        'cache-namespace-link',
        'cache-root-link',
        'out-dir-link',
      ] as const,
      { maxLength: 3 },
    ),
    userFiles: fc.array(
      fc.record({
        name: fc.constantFrom('notes.txt', 'img/mine.png', 'index.html', 'drafts/a.md'),
        text: fc.string({ maxLength: 20 }),
      }),
      { maxLength: 2 },
    ),
    config: fc.constantFrom(
      'plain' as const,
      'plain' as const,
      'static-outside' as const,
      'static-absolute' as const,
      'content-outside' as const,
    ),
  });
}

const writeJson = (file: string, value: unknown) => writeFileSync(file, `${JSON.stringify(value)}\n`);
const link = (target: string, at: string) => {
  rmSync(at, { recursive: true, force: true });
  mkdirSync(path.dirname(at), { recursive: true });
  symlinkSync(target, at);
};

/** Plants the attacks on a project whose site (when `prebuilt`) was built already. */
export function plant(project: HostileProject, a: Attacks): void {
  const { outDir, outside } = project;
  const manifestFile = path.join(outDir, '.pybook-output');
  if (a.manifestNames.length > 0 && existsSync(manifestFile)) {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { files: Record<string, [number, string]> };
    for (const name of a.manifestNames.map((n) => resolveName(project, n)))
      manifest.files[name] = entryFor(outDir, name);
    writeJson(manifestFile, manifest);
  }
  if (a.journalNames.length > 0) {
    const staging = `${outDir}.staging-${DEAD_PID}`;
    mkdirSync(staging, { recursive: true });
    const names = a.journalNames.map((n) => resolveName(project, n));
    writeFileSync(
      path.join(staging, '.pybook-journal'),
      names.map((name) => JSON.stringify([name, ...entryFor(staging, name)])).join('\n') + '\n',
    );
  }
  if (a.previous !== 'none') {
    const previous = `${outDir}.previous-${DEAD_PID + 1}`;
    mkdirSync(previous, { recursive: true });
    writeFileSync(path.join(previous, 'index.html'), '<p>planted</p>');
    const files: Record<string, [number, string]> = { 'index.html': entryFor(previous, 'index.html') };
    if (a.previous === 'planted-hostile')
      for (const name of ['../outside/secret.txt', '../../outside/dir/notes.md'])
        files[name] = entryFor(previous, name);
    writeJson(path.join(previous, '.pybook-output'), {
      generator: 'pybook',
      version: 2,
      note: '',
      contentNamed: [],
      files,
    });
  }
  for (const kind of a.links) {
    if (kind === 'site-folder-link' && existsSync(outDir)) link(path.join(outside, 'dir'), path.join(outDir, 'img'));
    if (kind === 'site-file-link' && existsSync(outDir))
      link(path.join(outside, 'secret.txt'), path.join(outDir, 'evil.html'));
    if (kind === 'static-folder-link') link(path.join(outside, 'dir'), path.join(project.project, 'book', 'static'));
    if (kind === 'static-file-link')
      link(path.join(outside, 'secret.txt'), path.join(project.project, 'book', 'static', 'leak.txt'));
    if (kind === 'fixtures-folder-link')
      link(path.join(outside, 'dir'), path.join(project.project, 'book', 'fixtures'));
    if (kind === 'cache-namespace-link')
      link(path.join(outside, 'dir'), path.join(project.project, 'node_modules', '.cache', 'pybook', 'search'));
    if (kind === 'cache-root-link')
      link(path.join(outside, 'dir'), path.join(project.project, 'node_modules', '.cache'));
    if (kind === 'out-dir-link') link(path.join(outside, 'dir'), `${outDir}-linked`);
  }
  if (existsSync(outDir) && !lstatSync(outDir).isSymbolicLink()) {
    for (const file of a.userFiles) {
      const at = path.join(outDir, file.name);
      try {
        mkdirSync(path.dirname(at), { recursive: true });
        writeFileSync(at, `user's own: ${file.text}`);
      } catch {
        // a link or a file in the way: the attack is the link
      }
    }
  }
  if (a.removeSite) rmSync(outDir, { recursive: true, force: true });
  if (a.config !== 'plain') {
    const config = JSON.parse(readFileSync(project.configPath, 'utf8')) as Record<string, unknown>;
    if (a.config === 'static-outside') config.staticDir = '../outside/dir';
    if (a.config === 'static-absolute') config.staticDir = path.join(outside, 'dir');
    if (a.config === 'content-outside') config.contentDir = '../outside';
    writeJson(project.configPath, config);
  }
}
