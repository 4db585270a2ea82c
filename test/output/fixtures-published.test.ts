import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Builder } from '../../src/generator/build.js';
import { chapter, createFixtureBook, type FixtureBook } from '../fixtures/fixture-book.js';

/**
 * Fixtures (the files examples read) are published with the site, so they follow the static
 * files' rules: a link must stay inside the project, and a FIFO or device is an error that names
 * the file. A pull request could otherwise publish /proc/self/environ (the build's secrets).
 */
let book: FixtureBook;
let fixtures: string;

const build = () => new Builder({ configPath: book.configPath }).build();

beforeAll(async () => {
  book = await createFixtureBook({ chapters: { en: { intro: chapter('Intro', 'Hello.') } } });
  fixtures = path.join(book.root, 'book', 'fixtures');
});
afterAll(() => book.remove());
beforeEach(() => {
  rmSync(fixtures, { recursive: true, force: true });
  mkdirSync(fixtures, { recursive: true });
  writeFileSync(path.join(fixtures, 'scores.csv'), 'name,score\nada,3\n');
});

describe('fixtures published with the site', () => {
  it('a fixture inside the project, or a link to a file inside it, is published', async () => {
    writeFileSync(path.join(book.root, 'shared.json'), '{"ok": true}');
    symlinkSync(path.join(book.root, 'shared.json'), path.join(fixtures, 'shared.json'));
    const result = await build();
    const published = [...result.files.keys()].filter((name) => name.startsWith('assets/fixtures/'));
    expect(published.map((name) => path.basename(name)).sort()).toEqual(['scores.csv', 'shared.json']);
  });

  it.each([
    [
      '/proc/self/environ',
      'env.json',
      /link to \/proc\/\d+\/environ, outside the project: fixtures must live inside the project/,
    ],
    ['/etc/passwd', 'users.txt', /link to \/etc\/passwd, outside the project: fixtures must live inside the project/],
  ])('a link to %s is an error naming the fixture', async (outside, name, message) => {
    symlinkSync(outside, path.join(fixtures, name));
    const failure = build();
    await expect(failure).rejects.toThrow(message);
    // Named as the error names files: relative to the working folder.
    await expect(failure).rejects.toMatchObject({
      position: { file: path.relative(process.cwd(), path.join(fixtures, name)) },
    });
  });

  it('a FIFO is an error naming the fixture, not skipped', async () => {
    execFileSync('mkfifo', [path.join(fixtures, 'pipe.txt')]);
    const failure = build();
    await expect(failure).rejects.toThrow(/this fixture is neither a file nor a folder \(a FIFO, socket or device\?\)/);
    await expect(failure).rejects.toMatchObject({
      position: { file: path.relative(process.cwd(), path.join(fixtures, 'pipe.txt')) },
    });
  });
});
