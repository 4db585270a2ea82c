import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChapterFile } from '../../src/book/read-chapter-file.js';
import { parseConfig } from '../../src/config/load-config.js';
import { Builder } from '../../src/generator/build.js';
import { BookError, BookErrors } from '../../src/core/errors.js';
import { chapter, createFixtureBook } from '../fixtures/fixture-book.js';
import { compileBody, compileIn, TEST_FILE, thrown } from '../fixtures/render.js';

/** Front matter takes lines 1-3 and a blank line follows: the body starts on line 5. */
const BODY_LINE = 5;

function located(run: () => unknown): BookError {
  const error = thrown(run);
  expect(error).toBeInstanceOf(BookError);
  return error;
}

describe('link and image URLs', () => {
  it.each([
    ['[x](javascript:alert(1))', 1, 'javascript'],
    ['Text and [x](JavaScript:alert(1))', 10, 'javascript'],
    ['![x](vbscript:msgbox)', 1, 'vbscript'],
    ['![x](data:image/svg+xml;base64,PHN2Zz4=)', 1, 'data'],
    ['[x](data:text/html;base64,PHNjcmlwdD4=)', 1, 'data'],
    ['[x](file:///etc/passwd)', 1, 'file'],
    ['[x](java&#x09;script:alert(1))', 1, 'javascript'],
  ])('%s fails the build at its line and column', (body, column, scheme) => {
    const error = located(() => compileBody(body));
    expect(error.message).toContain(`URL scheme "${scheme}:" is not allowed`);
    expect(error.position).toEqual({ file: TEST_FILE, line: BODY_LINE, column });
  });

  it('a link definition with a script URL fails too', () => {
    const error = located(() => compileBody('See [the docs][d].\n\n[d]: javascript:alert(1)'));
    expect(error.position).toMatchObject({ line: BODY_LINE + 2, column: 1 });
  });

  it('http, https, mailto, tel and relative links pass', () => {
    expect(() =>
      compileBody(
        '[a](https://python.org) [b](http://example.com) [c](mailto:a@b.c) [d](tel:+4912) [e](#top) [f](/img/logo.svg)',
      ),
    ).not.toThrow();
  });
});

describe('code block options', () => {
  it('highlight ranges must lie inside the block, so a huge range cannot stall the build', () => {
    const error = located(() => compileBody('```python {1-50000000}\nprint(1)\n```'));
    expect(error.message).toContain('line range "1-50000000" goes past the end of the block (1 line)');
    expect(error.position).toMatchObject({ line: BODY_LINE });
  });
});

describe('front matter', () => {
  it('an unknown field is reported at its own line and column', () => {
    const error = located(() => compileIn('en', '---\ntitle: A\ndescription: B\n  # comment\nslug: b\n---\n\nText'));
    expect(error.message).toContain('unknown front matter field "slug"');
    expect(error.position).toMatchObject({ line: 5, column: 1 });
  });
});

describe('book.config.json syntax', () => {
  const failure = (text: string) => located(() => parseConfig(text, '/books/book.config.json'));

  it.each([
    ['{\n  "title": "x",\n  oops\n}', 3, 3, /expected a property name/],
    ['{\n  "title": "x",\n}', 3, 1, /no trailing comma/],
    ['{\n  "a": [1, 2,]\n}', 2, 14, /no trailing comma/],
    ['{\n  "title": \'x\'\n}', 2, 12, /double quotes/],
    ['{\n  "title": "x"\n  "b": 1\n}', 3, 3, /expected "," or "}"/],
    ['{\n  "title": "x', 2, 14, /ends inside a string \(is it cut short\?\): a closing " is missing/],
  ])('%j is reported at line %i, column %i', (text, line, column, message) => {
    const error = failure(text);
    expect(error.message).toMatch(/^invalid JSON: /);
    expect(error.message).toMatch(message);
    expect(error.position).toEqual({ file: '/books/book.config.json', line, column });
  });

  it('a byte order mark is accepted', () => {
    const error = thrown(() => parseConfig('\ufeff{"title": 1}', '/books/book.config.json'));
    expect(error.message).not.toMatch(/invalid JSON/);
  });
});

describe('chapter files', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pybook-chapter-files-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const at = (name: string) => path.join(dir, name);

  it('a UTF-8 BOM is dropped', () => {
    writeFileSync(at('bom.mdx'), '\ufeff---\ntitle: A\n---\n');
    expect(readChapterFile(at('bom.mdx'), dir)).toBe('---\ntitle: A\n---\n');
  });

  it('invalid UTF-8 names the line and column of the first bad byte', () => {
    writeFileSync(
      at('latin1.mdx'),
      Buffer.concat([Buffer.from('---\ntitle: A\n---\n\nCaf'), Buffer.from([0xe9]), Buffer.from(' crème\n')]),
    );
    const error = located(() => readChapterFile(at('latin1.mdx'), dir));
    expect(error.message).toMatch(/not valid UTF-8 \(byte 0xe9/);
    expect(error.position).toMatchObject({ line: 5, column: 4 });
  });

  it('encoded surrogates and overlong forms are not UTF-8 either', () => {
    writeFileSync(at('surrogate.mdx'), Buffer.concat([Buffer.from('ok\nab'), Buffer.from([0xed, 0xa0, 0x80])]));
    expect(located(() => readChapterFile(at('surrogate.mdx'), dir)).position).toMatchObject({ line: 2, column: 3 });
    writeFileSync(at('overlong.mdx'), Buffer.from([0x61, 0xc0, 0xaf]));
    expect(located(() => readChapterFile(at('overlong.mdx'), dir)).message).toMatch(/byte 0xc0 at byte offset 1/);
  });

  it('a column counts characters, not bytes', () => {
    writeFileSync(at('cjk.mdx'), Buffer.concat([Buffer.from('中文'), Buffer.from([0xff])]));
    expect(located(() => readChapterFile(at('cjk.mdx'), dir)).position).toMatchObject({ line: 1, column: 3 });
  });

  it('a folder, a FIFO, a dangling link and a link out of the project are named errors', () => {
    mkdirSync(at('folder.mdx'));
    expect(located(() => readChapterFile(at('folder.mdx'), dir)).message).toMatch(/is a folder, not a chapter file/);
    execFileSync('mkfifo', [at('pipe.mdx')]);
    expect(located(() => readChapterFile(at('pipe.mdx'), dir)).message).toMatch(/not a regular file/);
    symlinkSync(at('nowhere.mdx'), at('dangling.mdx'));
    expect(located(() => readChapterFile(at('dangling.mdx'), dir)).message).toMatch(/link to nothing/);
    symlinkSync('/etc/hostname', at('outside.mdx'));
    expect(located(() => readChapterFile(at('outside.mdx'), dir)).message).toMatch(/outside the project/);
  });

  it('a chapter over 2 MB is refused', () => {
    writeFileSync(at('huge.mdx'), 'x'.repeat(2 * 1024 * 1024 + 1));
    expect(located(() => readChapterFile(at('huge.mdx'), dir)).message).toMatch(
      /more than the 2 MB a chapter may have/,
    );
  });
});

describe('files a chapter refers to', () => {
  it('a missing image or static file fails the build with its location; present ones pass', async () => {
    const book = await createFixtureBook({
      chapters: {
        en: {
          intro: chapter(
            'Intro',
            '![Logo](/img/logo.svg)\n\n![Gone](/img/missing.png)\n\n[Download](./files/data.zip)',
          ),
        },
      },
    });
    try {
      const error = await new Builder({ configPath: book.configPath }).build().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(BookErrors);
      const errors = (error as BookErrors).errors;
      expect(errors.map((e) => e.message)).toEqual([
        'missing file "/img/missing.png": there is no img/missing.png in the static folder',
        'missing file "./files/data.zip": there is no intro/files/data.zip in the static folder',
        // The Chinese page falls back to the English text, and a relative path resolves from its own URL.
        'missing file "./files/data.zip": there is no zh-cn/intro/files/data.zip in the static folder',
      ]);
      expect(errors[0].position).toMatchObject({ line: 7, column: 1 });
      mkdirSync(path.join(book.root, 'book', 'static', 'img'), { recursive: true });
      writeFileSync(path.join(book.root, 'book', 'static', 'img', 'missing.png'), 'png');
      await book.writeChapter('en', 'intro', chapter('Intro', '![Logo](/img/logo.svg)\n\n![Found](/img/missing.png)'));
      await expect(new Builder({ configPath: book.configPath }).build()).resolves.toBeDefined();
    } finally {
      await book.remove();
    }
  });

  it('a FIFO in the static folder is a named error, not a build that waits forever', async () => {
    const book = await createFixtureBook({ chapters: { en: { intro: chapter('Intro') } } });
    try {
      execFileSync('mkfifo', [path.join(book.root, 'book', 'static', 'pipe.txt')]);
      await expect(new Builder({ configPath: book.configPath }).build()).rejects.toThrow(/neither a file nor a folder/);
    } finally {
      await book.remove();
    }
  });

  it('a static file that links out of the project fails the write, and nothing in the output is a link', async () => {
    const book = await createFixtureBook({ chapters: { en: { intro: chapter('Intro') } } });
    const out = await mkdtemp(path.join(os.tmpdir(), 'pybook-static-links-'));
    try {
      const staticDir = path.join(book.root, 'book', 'static');
      writeFileSync(path.join(book.root, 'inside.txt'), 'inside the project');
      symlinkSync(path.join(book.root, 'inside.txt'), path.join(staticDir, 'linked.txt'));
      const { runBuild } = await import('../../src/cli/build.js');
      await runBuild({ config: book.configPath, outDir: path.join(out, 'site'), quiet: true });
      const { lstatSync, readFileSync } = await import('node:fs');
      expect(lstatSync(path.join(out, 'site', 'linked.txt')).isSymbolicLink()).toBe(false);
      expect(readFileSync(path.join(out, 'site', 'linked.txt'), 'utf8')).toBe('inside the project');

      symlinkSync('/etc/hostname', path.join(staticDir, 'secret.txt'));
      await expect(runBuild({ config: book.configPath, outDir: path.join(out, 'site'), quiet: true })).rejects.toThrow(
        /secret\.txt.*|link to \/etc\/hostname, outside the project/,
      );
      expect(readFileSync(path.join(out, 'site', 'linked.txt'), 'utf8')).toBe('inside the project');
    } finally {
      await book.remove();
      await rm(out, { recursive: true, force: true });
    }
  });
});
