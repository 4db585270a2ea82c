import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBook, sidebarSlugs } from '../../src/book/load-book.js';
import { pageRoute } from '../../src/book/routes.js';
import { loadConfig } from '../../src/config/load-config.js';
import { compileChapter } from '../../src/markdown/compile.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const config = loadConfig(path.join(root, 'book.config.json'));
const book = loadBook(config);
/** The chapter slugs of the product specification (shared/spec.md, section 2), one route each. */
const SPEC_SLUGS = `about-the-book, afterword, anonymous-functions, arithmetic-operation, basic-types, class-and-instance,
comprehension-expressions, create-and-import-of-modules, create-and-import-packages, custom-exception-classes, datetime-module,
definition-and-assignment-of-variables, definition-and-invocation-of-functions, dictionary, for-and-while-statement, hello-world,
how-to-use-the-book, if-statement, json-module, lifelong-learning, lists-and-tuples, math-module, naming-rules-for-variables,
os-module, pip, poetry, random-module, re-module, read-and-write-files, references, set, setup-environment, task-book-store,
task-list-files, task-top-50-in-github, third-party-packages, try-except-statements, type-conversion, typing-annotation,
venv-and-conda-and-condaip`.split(',').map((s) => s.trim());
/** The chapters Book 1.1 adds (issue 14): the spec's list plus these. */
const BOOK_1_1_SLUGS = ['iterators-and-generators', 'async-and-await', 'testing-with-pytest', 'logging-and-debugging', 'uv'];
/** The chapters Book 1.3 adds (issue 41). */
const BOOK_1_3_SLUGS = ['decorators-and-context-managers', 'data-modelling', 'code-quality-tools'];

function compiled(locale: string, slug: string) {
  const source = book.chapters[locale].find((c) => c.slug === slug)!;
  const info = book.locales.find((l) => l.code === locale)!;
  return compileChapter(source.source, source.file, { slug, basePath: config.basePath, localePaths: ['zh-cn'], routeFor: (s) => pageRoute(config.basePath, info, s) });
}

describe('the book', () => {
  it('has exactly the 40 chapters the spec lists, the 5 of Book 1.1 and the 3 of Book 1.3, all in the sidebar', () => {
    const specSlugs = [...SPEC_SLUGS, ...BOOK_1_1_SLUGS, ...BOOK_1_3_SLUGS].sort();
    expect(new Set(specSlugs).size).toBe(48);
    expect([...book.slugs].sort()).toEqual(specSlugs);
    expect(sidebarSlugs(config.sidebar).sort()).toEqual(specSlugs);
  });

  it('has every chapter translated: no Chinese page falls back to English', () => {
    expect(book.chapters['zh-cn'].filter((c) => c.fallback).map((c) => c.slug)).toEqual([]);
  });

  it('keeps the same heading ids in both languages, so the language switch lands on the same section', () => {
    const mismatched: string[] = [];
    for (const slug of book.slugs) {
      const en = compiled('en', slug).headings.map((h) => h.id);
      const zh = compiled('zh-cn', slug).headings.map((h) => h.id);
      if (JSON.stringify(en) !== JSON.stringify(zh)) mismatched.push(`${slug}: en [${en.join(', ')}] zh [${zh.join(', ')}]`);
    }
    expect(mismatched).toEqual([]);
  });

  it('gives each chapter a substantial English body and an exercise with an answer in both languages', () => {
    const thin: string[] = [];
    for (const slug of book.slugs) {
      // Words of the whole chapter, examples included (front matter excluded), as authors count them.
      const words = book.chapters.en.find((c) => c.slug === slug)!.source.replace(/^---[\s\S]*?---/, '').split(/\s+/).filter(Boolean).length;
      const minimum = ['references', 'afterword'].includes(slug) ? 500 : 900;
      if (words < minimum) thin.push(`${slug}: ${words} words`);
      for (const locale of ['en', 'zh-cn']) {
        const source = book.chapters[locale].find((c) => c.slug === slug)!.source;
        if (!/^## .*\n[\s\S]*<Answer>/m.test(source)) thin.push(`${locale}/${slug}: no exercise with an <Answer>`);
      }
    }
    expect(thin).toEqual([]);
  });
});
