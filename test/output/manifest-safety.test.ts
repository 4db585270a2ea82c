import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../src/cli/build.js';
import { foreignFilesIn, manifestOf } from '../../src/output/manifest.js';
import { MARKER_FILE } from '../../src/output/marker.js';
import { chapter, createFixtureBook, type FixtureBook } from '../fixtures/fixture-book.js';
import { pybook } from '../helpers/pybook-cli.js';

/**
 * A marker can be copied or planted; the manifest (the list of files a build wrote, with their
 * bytes' hashes) cannot make a folder of someone's files deletable. Each case is one way a
 * hostile or clumsy user could point a build at files it never wrote.
 */

let fixture: FixtureBook;
let scratch: string;
let built: string;

/** Every file below `dir` with its bytes, to prove nothing was deleted or changed. */
function contentsOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    try {
      out[name] = readFileSync(path.join(dir, name), 'utf8');
    } catch {
      out[name] = '(folder)';
    }
  }
  return out;
}

const build = (outDir: string) => runBuild({ config: fixture.configPath, outDir, quiet: true });

beforeAll(async () => {
  fixture = await createFixtureBook({ chapters: { en: { intro: chapter('Intro', 'Hello.') } } });
  mkdirSync(path.join(fixture.root, 'docs'));
  writeFileSync(path.join(fixture.root, 'docs', 'authoring.md'), '# How to write a chapter');
  writeFileSync(path.join(fixture.root, 'docs', 'style-guide.md'), '# Style');
  scratch = await mkdtemp(path.join(os.tmpdir(), 'pybook-manifest-'));
  built = path.join(scratch, 'built');
  await build(built);
});
afterAll(async () => {
  await fixture.remove();
  await rm(scratch, { recursive: true, force: true });
});

describe('the manifest', () => {
  it('lists every file the build wrote, with its size and hash, and nothing else', () => {
    const manifest = manifestOf(built)!;
    const onDisk = readdirSync(built, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(built, path.join(entry.parentPath, entry.name)))
      .filter((name) => name !== '.pybook-output' && name !== '.pybook-written');
    expect(Object.keys(manifest.files).sort()).toEqual(onDisk.sort());
    const index = readFileSync(path.join(built, 'index.html'));
    expect(manifest.files['index.html'][0]).toBe(index.length);
    expect(foreignFilesIn(built).foreign).toEqual([]);
  });
});

describe('a copied or planted marker does not make a folder deletable', () => {
  it("`pybook build --out-dir docs` with a planted marker refuses (docs is the project's, by name) and deletes nothing", async () => {
    writeFileSync(path.join(fixture.root, 'docs', MARKER_FILE), '{"generator":"pybook"}');
    const before = contentsOf(path.join(fixture.root, 'docs'));
    const run = await pybook(['build', '--out-dir', 'docs'], fixture.root);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/refusing to write the site to --out-dir docs .*it is the project's docs folder/);
    expect(contentsOf(path.join(fixture.root, 'docs'))).toEqual(before);
  });

  it("a real build's manifest copied into a folder of notes: refused, naming the notes", async () => {
    const notes = path.join(scratch, 'notes');
    mkdirSync(notes);
    writeFileSync(path.join(notes, 'authoring.md'), 'mine');
    writeFileSync(path.join(notes, 'style-guide.md'), 'mine too');
    cpSync(path.join(built, MARKER_FILE), path.join(notes, MARKER_FILE));
    const before = contentsOf(notes);
    await expect(build(notes)).rejects.toThrow(
      /holds files pybook did not write, or that changed since: authoring\.md, style-guide\.md/,
    );
    expect(contentsOf(notes)).toEqual(before);
  });

  it("a listed name with other bytes (the user's own index.html) is not the file pybook wrote", async () => {
    const site = path.join(scratch, 'own-index');
    cpSync(built, site, { recursive: true });
    // The same size, so only the bytes tell it apart.
    const page = readFileSync(path.join(built, 'intro', 'index.html'), 'utf8');
    expect(page).toContain('Hello.');
    writeFileSync(path.join(site, 'intro', 'index.html'), page.replace('Hello.', 'Jello.'));
    const before = contentsOf(site);
    await expect(build(site)).rejects.toThrow(/that changed since: intro\/index\.html\. Move those files out/);
    expect(contentsOf(site)).toEqual(before);
  });

  it('a folder that only looks like an old output (generator meta, assets/) keeps its notes.txt', async () => {
    const lookalike = path.join(scratch, 'lookalike');
    mkdirSync(path.join(lookalike, 'assets'), { recursive: true });
    writeFileSync(
      path.join(lookalike, 'index.html'),
      '<!doctype html><meta name="generator" content="pybook 1.0.0"><title>x</title>',
    );
    writeFileSync(path.join(lookalike, 'notes.txt'), 'keep me');
    await expect(build(lookalike)).rejects.toThrow(/holds no manifest of pybook's .*: index\.html, notes\.txt/);
    expect(readFileSync(path.join(lookalike, 'notes.txt'), 'utf8')).toBe('keep me');
  });

  it('a file added to a built site is listed, and the site is left as it was', async () => {
    const site = path.join(scratch, 'added');
    await build(site);
    mkdirSync(path.join(site, 'intro', 'drafts'));
    writeFileSync(path.join(site, 'intro', 'drafts', 'thesis.tex'), '\\documentclass{article}');
    const before = contentsOf(site);
    await expect(build(site)).rejects.toThrow(/intro\/drafts\//);
    expect(contentsOf(site)).toEqual(before);
  });

  it('a built site copied elsewhere (new file times) is still proven by its hashes and replaced', async () => {
    const copy = path.join(scratch, 'copied-site');
    cpSync(built, copy, { recursive: true, preserveTimestamps: false });
    await build(copy);
    expect(foreignFilesIn(copy).foreign).toEqual([]);
  });

  it('`S/site.previous-999999` holding a marker and thesis.tex is neither moved nor deleted by `build --out-dir S/site`', async () => {
    const parent = path.join(scratch, 'S');
    const planted = path.join(parent, 'site.previous-999999');
    mkdirSync(planted, { recursive: true });
    writeFileSync(path.join(planted, MARKER_FILE), '{"generator":"pybook"}');
    writeFileSync(path.join(planted, 'thesis.tex'), 'years of work');
    const warnings: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = (chunk: string) => {
      warnings.push(String(chunk));
      return true;
    };
    try {
      await build(path.join(parent, 'site'));
    } finally {
      process.stderr.write = write;
    }
    expect(readFileSync(path.join(planted, 'thesis.tex'), 'utf8')).toBe('years of work');
    expect(existsSync(path.join(parent, 'site', 'thesis.tex'))).toBe(false);
    expect(warnings.join('')).toMatch(/left .*site\.previous-999999 in place: .*holds files pybook did not write/);
  });

  it("a planted folder with this very build's staging name is not taken over", async () => {
    const parent = path.join(scratch, 'P');
    const squatter = path.join(parent, `site.staging-${process.pid}`);
    mkdirSync(squatter, { recursive: true });
    writeFileSync(path.join(squatter, 'paper.txt'), 'mine');
    await expect(build(path.join(parent, 'site'))).rejects.toThrow(
      /is in the way of the build and holds files pybook did not write \(paper\.txt\)/,
    );
    expect(readFileSync(path.join(squatter, 'paper.txt'), 'utf8')).toBe('mine');
  });

  it("a killed build's staging folder with a file it did not journal is left alone", async () => {
    const parent = path.join(scratch, 'K');
    const outDir = path.join(parent, 'site');
    await build(outDir);
    const dead = `${outDir}.staging-99999997`;
    renameSync(outDir, dead);
    writeFileSync(path.join(dead, '.pybook-journal'), '["intro/index.html",1,"x"]\n');
    writeFileSync(path.join(dead, 'mine.txt'), 'mine');
    await build(outDir);
    expect(readFileSync(path.join(dead, 'mine.txt'), 'utf8')).toBe('mine');
  });
});

describe('refused before the build starts', () => {
  it('an --out-dir under a regular file', async () => {
    writeFileSync(path.join(scratch, 'a-file.txt'), 'x');
    const run = await pybook(
      ['build', '--config', fixture.configPath, '--out-dir', path.join(scratch, 'a-file.txt', 'site')],
      scratch,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/a-file\.txt is a file, so no folder can be made under it/);
    expect(run.stderr).not.toMatch(/compiling chapters/);
  });
});
