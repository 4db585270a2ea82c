import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../src/cli/build.js';
import { loadConfig } from '../../src/config/load-config.js';
import { assertSafeOutputDir, OutputFolderError, protectedFoldersOf } from '../../src/output/guard.js';
import { MARKER_FILE, readMarker } from '../../src/output/marker.js';
import { chapter, createFixtureBook, type FixtureBook } from '../fixtures/fixture-book.js';
import { pybook } from '../helpers/pybook-cli.js';

/**
 * pybook replaces its output folder whole, so it must never be pointed at a folder it did not
 * write. Every case runs on a scratch project in a temp folder, never on the real one.
 */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const bin = path.join(repoRoot, 'bin', 'pybook.js');

let fixture: FixtureBook;
let scratch: string;

/** Every file below `dir`, as relative paths, to prove nothing was deleted. */
function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((n) => !n.startsWith('out'))
    .sort();
}

beforeAll(async () => {
  fixture = await createFixtureBook({ chapters: { en: { intro: chapter('Intro', 'Hello.') } } });
  // The folders a real project has beside its book.
  for (const dir of ['src', 'templates', 'docs', 'node_modules/some-package', '.git']) {
    mkdirSync(path.join(fixture.root, dir), { recursive: true });
    writeFileSync(path.join(fixture.root, dir, 'keep.txt'), 'precious');
  }
  scratch = await mkdtemp(path.join(os.tmpdir(), 'pybook-outdir-'));
});
afterAll(async () => {
  await fixture.remove();
  await rm(scratch, { recursive: true, force: true });
});

describe('the output folder guard refuses', () => {
  const refused = (outDir: string) => () =>
    assertSafeOutputDir(outDir, protectedFoldersOf(loadConfig(fixture.configPath)));

  it.each([
    ['the project root', '.', /it is the project folder itself/],
    ['a parent of the project', '..', /it contains the project folder/],
    ['the content folder', 'book', /it is the content folder/],
    ['a folder inside the content folder', 'book/en/site', /it is inside the content folder/],
    ['the static folder', 'book/static', /it is the static folder/],
    ['the templates', 'templates', /it is the templates folder/],
    ['src', 'src', /it is the source folder src/],
    ['node_modules', 'node_modules', /it is node_modules/],
    ['the git folder', '.git', /it is the git folder/],
    ['the root with a detour', 'book/../', /it is the project folder itself/],
  ])('%s', (_name, relative, message) => {
    expect(refused(path.join(fixture.root, relative))).toThrow(message);
    expect(refused(path.join(fixture.root, relative))).toThrow(OutputFolderError);
  });

  it('the file-system root and the home folder', () => {
    expect(refused('/')).toThrow(/root of the file system/);
    expect(refused(os.homedir())).toThrow(/home folder/);
  });

  it.each(['docs', 'test', 'bin', 'dist', 'bench', 'tools'])(
    "the project's %s folder, by name, even empty or missing",
    (name) => {
      expect(refused(path.join(fixture.root, name))).toThrow(new RegExp(`it is the project's ${name} folder`));
    },
  );

  it('a non-empty folder pybook did not write, a file, and a link', () => {
    const notes = path.join(scratch, 'notes');
    mkdirSync(notes);
    writeFileSync(path.join(notes, 'todo.txt'), 'mine');
    expect(refused(notes)).toThrow(/not empty and holds no manifest of pybook's .*: todo\.txt/);
    writeFileSync(path.join(scratch, 'a-file'), 'x');
    expect(refused(path.join(scratch, 'a-file'))).toThrow(/it is a file/);
    mkdirSync(path.join(scratch, 'real-site'));
    symlinkSync(path.join(scratch, 'real-site'), path.join(scratch, 'linked-site'));
    expect(refused(path.join(scratch, 'linked-site'))).toThrow(/symbolic link/);
  });

  it('a path that reaches the project through a link', () => {
    symlinkSync(fixture.root, path.join(scratch, 'project-link'));
    expect(refused(path.join(scratch, 'project-link', 'book'))).toThrow(/it is the content folder/);
  });
});

describe('the output folder guard accepts', () => {
  it('a new folder, an empty folder, and its own output', async () => {
    const fresh = path.join(scratch, 'fresh', 'site');
    await runBuild({ config: fixture.configPath, outDir: fresh, quiet: true });
    expect(readMarker(fresh)?.generator).toBe('pybook');
    await runBuild({ config: fixture.configPath, outDir: fresh, quiet: true });

    const empty = path.join(scratch, 'empty');
    mkdirSync(empty);
    await runBuild({ config: fixture.configPath, outDir: empty, quiet: true });
    expect(existsSync(path.join(empty, 'intro', 'index.html'))).toBe(true);
  });

  it('lists in the marker only the files pybook named by their content', async () => {
    const outDir = path.join(scratch, 'named');
    await runBuild({ config: fixture.configPath, outDir, quiet: true });
    const named = readMarker(outDir)!.contentNamed;
    expect(named.some((n) => /^assets\/app\.[A-Z0-9]+\.js$/.test(n))).toBe(true);
    expect(named.some((n) => /^assets\/pages\/en\/intro\.[0-9a-f]{10}\.js$/.test(n))).toBe(true);
    // Pages keep their names; the runner's sandbox document and the launcher that frames it on a page
    // a service worker controls are named by their content (assets/runner/{sandbox,launcher}.<hash>/).
    expect(
      named.some(
        (n) =>
          (n.endsWith('.html') && !/^assets\/runner\/(sandbox|launcher)\.[0-9a-f]{10}\/index\.html$/.test(n)) ||
          n === 'sitemap.xml' ||
          n.startsWith('img/'),
      ),
    ).toBe(false);
    for (const name of named) expect(existsSync(path.join(outDir, name))).toBe(true);
  });
});

describe('pybook build and watch on the command line', () => {
  it.each([
    ['build', '.'],
    ['build', 'book'],
    ['build', 'docs'],
    ['build', '..'],
    ['watch', '.'],
    ['watch', 'book'],
  ])('`pybook %s --out-dir %s` refuses, exits non-zero and deletes nothing', async (verb, outDir) => {
    const before = listing(fixture.root);
    const run = await pybook(
      [verb, '--out-dir', outDir, '--port', '0'].slice(0, verb === 'build' ? 3 : 5),
      fixture.root,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(`error: refusing to write the site to --out-dir ${outDir.replace(/\./g, '\\.')} `),
    );
    expect(listing(fixture.root)).toEqual(before);
    for (const dir of ['src', 'templates', 'docs', '.git'])
      expect(readFileSync(path.join(fixture.root, dir, 'keep.txt'), 'utf8')).toBe('precious');
  });
});

describe('a build killed at any moment', () => {
  const leftovers = (parent: string, base: string) => readdirSync(parent).filter((n) => n.startsWith(`${base}.`));

  it('a SIGKILL during the write step leaves the previous site, and the next build sweeps what it left', async () => {
    const book = await createFixtureBook({ chapters: { en: { intro: chapter('Intro', 'Version one.') } } });
    try {
      // Enough static files that writing the site takes a while, so the kill lands mid-write.
      const staticDir = path.join(book.root, 'book', 'static', 'many');
      mkdirSync(staticDir, { recursive: true });
      for (let i = 0; i < 4000; i++)
        writeFileSync(path.join(staticDir, `file-${i}.txt`), `static file ${i}\n`.repeat(20));
      const parent = path.join(scratch, 'killed');
      const outDir = path.join(parent, 'site');
      await runBuild({ config: book.configPath, outDir, quiet: true });
      const before = readFileSync(path.join(outDir, 'intro', 'index.html'), 'utf8');
      expect(before).toContain('Version one.');

      await book.writeChapter('en', 'intro', chapter('Intro', 'Version two.'));
      const child = spawn(process.execPath, [bin, 'build', '--config', book.configPath, '--out-dir', outDir], {
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      // Kill it once its staging folder holds part of the static files.
      const staging = path.join(parent, `site.staging-${child.pid}`);
      await new Promise<void>((resolve) => {
        const poll = () => {
          if (existsSync(path.join(staging, 'many', 'file-100.txt'))) {
            child.kill('SIGKILL');
            resolve();
          } else setImmediate(poll);
        };
        poll();
      });
      await exited;
      expect(leftovers(parent, 'site')).toEqual([`site.staging-${child.pid}`]);
      expect(existsSync(path.join(staging, 'many', 'file-3999.txt'))).toBe(false);
      expect(readFileSync(path.join(outDir, 'intro', 'index.html'), 'utf8')).toBe(before);

      await runBuild({ config: book.configPath, outDir, quiet: true });
      expect(leftovers(parent, 'site')).toEqual([]);
      expect(readFileSync(path.join(outDir, 'intro', 'index.html'), 'utf8')).toContain('Version two.');
    } finally {
      await book.remove();
    }
  });

  it('killed between moving the old site aside and moving the new one in: the next build, even a failing one, puts it back', async () => {
    const parent = path.join(scratch, 'swap');
    const outDir = path.join(parent, 'site');
    await runBuild({ config: fixture.configPath, outDir, quiet: true });
    const before = listing(outDir);
    // The state such a kill leaves: the old site under a dead process's name, no site folder.
    const deadPid = 99_999_999;
    renameSync(outDir, `${outDir}.previous-${deadPid}`);
    mkdirSync(`${outDir}.staging-${deadPid}`);
    writeFileSync(path.join(`${outDir}.staging-${deadPid}`, '.pybook-journal'), '["index.html",5,"0"]\n');
    // A live build's staging folder (this process), and a folder with a marker but nothing that proves its files pybook's, stay.
    mkdirSync(`${outDir}.staging-${process.pid}`);
    writeFileSync(path.join(`${outDir}.staging-${process.pid}`, MARKER_FILE), '{"generator":"pybook"}');
    mkdirSync(`${outDir}.staging-${deadPid + 2}`);
    writeFileSync(path.join(`${outDir}.staging-${deadPid + 2}`, MARKER_FILE), '{"generator":"pybook"}');
    // A dead process's empty retired folder is swept and never taken for the site.
    mkdirSync(`${outDir}.previous-${deadPid + 1}`);
    mkdirSync(`${outDir}.previous-12`);
    writeFileSync(path.join(`${outDir}.previous-12`, 'notes.txt'), "not pybook's");

    await fixture.writeChapter('en', 'intro', chapter('Intro', 'A [broken link](./nowhere.mdx).'));
    await expect(runBuild({ config: fixture.configPath, outDir, quiet: true })).rejects.toThrow(/broken link/);
    await fixture.writeChapter('en', 'intro', chapter('Intro', 'Hello.'));
    expect(listing(outDir)).toEqual(before);
    expect(leftovers(parent, 'site').sort()).toEqual([
      'site.previous-12',
      `site.staging-${deadPid + 2}`,
      `site.staging-${process.pid}`,
    ]);
  });
});
