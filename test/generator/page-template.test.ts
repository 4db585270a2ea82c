import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Builder } from '../../src/generator/build.js';
import { checkPageTemplate, loadPageTemplate } from '../../src/generator/page-template.js';
import { TEMPLATE_FILE } from '../../src/generator/render-page.js';
import { BookError, formatError } from '../../src/core/errors.js';
import { createTinyBook, type TinyBook } from '../watch/tiny-book.js';
import { textOf } from '../helpers/built-files.js';

const shell = readFileSync(TEMPLATE_FILE, 'utf8');
const FILE = '/books/templates/page.html';

function failureOf(text: string): BookError {
  try {
    checkPageTemplate(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(BookError);
    return error as BookError;
  }
  throw new Error('expected the template to be rejected');
}

describe('checking the page template', () => {
  it("accepts pybook's own template", () => {
    expect(() => checkPageTemplate(shell, TEMPLATE_FILE)).not.toThrow();
  });

  it('rejects a template without {{app}}: its pages would be empty', () => {
    const error = failureOf(shell.replace('{{app}}', ''));
    expect(error.message).toBe('the page template lacks {{app}}: every page would be empty without it');
    expect(error.position).toEqual({ file: FILE });
  });

  it('rejects a template without {{scripts}}', () => {
    expect(failureOf(shell.replace('{{scripts}}', '')).message).toBe(
      'the page template lacks {{scripts}}: every page would be broken without it',
    );
  });

  it('lists every required placeholder that is missing', () => {
    expect(failureOf(shell.replace('{{app}}', '').replace('{{data}}', '')).message).toMatch(
      /lacks \{\{app\}\}, \{\{data\}\}: .* without them$/,
    );
  });

  it('rejects an unknown placeholder with its line and column', () => {
    const text = shell.replace('<body>', '<body>\n<p>{{footer}}</p>');
    const error = failureOf(text);
    const line = text.split('\n').findIndex((l) => l.includes('{{footer}}')) + 1;
    expect(error.message).toMatch(
      /^the page template has an unknown placeholder \{\{footer\}\}: the placeholders are \{\{htmlLang\}\}, .*\{\{scripts\}\}$/,
    );
    expect(error.position).toEqual({ file: FILE, line, column: 4 });
    expect(formatError(error)).toContain(`${FILE}:${line}:4: `);
  });

  it('rejects a known placeholder written with spaces, saying how to write it', () => {
    expect(failureOf(shell.replace('{{head}}', '{{ head }}')).message).toBe(
      'the page template has an unknown placeholder {{ head }}: write {{head}} without spaces',
    );
  });

  it('names a deleted template in a sentence, not a raw ENOENT', () => {
    const missing = path.join(path.dirname(FILE), 'nope', 'page.html');
    let error: unknown;
    try {
      loadPageTemplate(missing);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BookError);
    expect(formatError(error)).toBe(
      `${missing}: cannot read the page template: there is no such file (was it deleted or moved?)`,
    );
  });
});

describe('a build with a broken page template', () => {
  let book: TinyBook | undefined;
  afterEach(() => {
    if (book) rmSync(book.dir, { recursive: true, force: true });
    book = undefined;
  });

  const withTemplate = (text: string | undefined) => {
    book = createTinyBook();
    const templateFile = path.join(book.dir, 'templates', 'page.html');
    mkdirSync(path.dirname(templateFile), { recursive: true });
    if (text !== undefined) writeFileSync(templateFile, text);
    return { builder: new Builder({ configPath: book.configPath, templateFile }), templateFile };
  };

  it('fails instead of building empty pages when {{app}} is removed', async () => {
    const { builder, templateFile } = withTemplate(shell.replace('{{app}}', ''));
    const failure = builder.build();
    await expect(failure).rejects.toThrow('lacks {{app}}');
    await expect(failure).rejects.toMatchObject({ position: { file: templateFile } });
  });

  it('fails, naming the file, when the template was deleted', async () => {
    const { builder, templateFile } = withTemplate(undefined);
    expect(existsSync(templateFile)).toBe(false);
    await expect(builder.build()).rejects.toMatchObject({
      message: 'cannot read the page template: there is no such file (was it deleted or moved?)',
      position: { file: templateFile },
    });
  });

  it('builds with a copy of the real template', async () => {
    book = createTinyBook();
    const templateFile = path.join(book.dir, 'page.html');
    copyFileSync(TEMPLATE_FILE, templateFile);
    const { files } = await new Builder({ configPath: book.configPath, templateFile }).build();
    expect(textOf(files, 'beta/index.html')).toContain('Paragraph 1 of beta');
  });
});
