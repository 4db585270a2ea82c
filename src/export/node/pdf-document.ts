import { readFileSync } from 'node:fs';
import type { Element, ElementContent, Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { format } from '../../shared/i18n/plural.js';
import { answerEntries, answerLinkParagraph, type AnswerPlaces } from './answers.js';
import { findStaticFile, type BookFile, type ExportBook, type ExportChapter, type ExportEntry } from './book.js';
import { h, isElement, textOf } from './hast.js';
import { prepareChapter, type AnswerEntry, type ExportTargets } from './prepare-chapter.js';

/**
 * The book of one locale as one HTML document, for Chromium to print: the cover, the table of
 * contents (with page numbers once known), each top-level part's title page, the chapters (each
 * on its own named page, whose running header is the chapter's title) and the answers appendix.
 * Every link inside the book is an anchor of this document; every heading announces its level in
 * the sidebar's tree (aria-level), which is what the PDF's outline is made of: parts and their
 * categories, chapters, and their h2 sections (deeper headings are level 7, which the outline
 * leaves out and the tags still mark as headings).
 */
export interface PdfDocument {
  /** The document with the page numbers given (`000` where none is known yet). */
  html(pages?: ReadonlyMap<string, number>): string;
  /** The ids whose page numbers the document shows. */
  pageTargets: string[];
  /**
   * The text of every heading the PDF's outline is made of (levels 1-6), in document order: what
   * each outline entry must read (see `repairOutlineTitles` in pdf.ts).
   */
  outlineHeadings: string[];
}

const PLACEHOLDER = '000';
const OUT_OF_OUTLINE = 7;

function dataUrl(file: BookFile): string {
  return `data:${file.mediaType};base64,${readFileSync(file.file).toString('base64')}`;
}

/** A CSS string literal of any text (for the running headers). */
const cssString = (text: string) =>
  `"${text
    .replace(/[\\"]/g, '\\$&')
    .replace(/[\n\r]+/g, ' ')
    .replace(/</g, '\\3c ')}"`;

export function pdfDocument(book: ExportBook, css: string): PdfDocument {
  const { strings, config } = book;
  const chaptersBySlug = new Map(book.chapters.map((c) => [c.slug, c]));
  const pageRefs: Array<{ id: string; node: Element }> = [];
  const pageOf = (id: string): ElementContent[] => {
    const node = h('span', { className: ['page-of'] }, [PLACEHOLDER]);
    pageRefs.push({ id, node });
    const [before, after] = strings.exportBook.onPage.split('{page}');
    return [{ type: 'text', value: before }, node, { type: 'text', value: after ?? '' }];
  };
  const places: AnswerPlaces = {
    refId: (e) => `${e.slug}--answer-${e.number}`,
    entryId: (e) => `answers--${e.slug}-${e.number}`,
    refHref: (e) => `#${e.slug}--answer-${e.number}`,
    entryHref: (e) => `#answers--${e.slug}-${e.number}`,
    pageOf,
  };
  const imageCache = new Map<string, string | undefined>();
  const imageSrc = (sitePath: string) => {
    if (!imageCache.has(sitePath)) {
      const file = findStaticFile(book.staticDirs, sitePath);
      imageCache.set(sitePath, file && dataUrl(file));
    }
    return imageCache.get(sitePath);
  };

  const answersByChapter = new Map<string, AnswerEntry[]>();
  const pageRules: string[] = [];
  const body: ElementContent[] = [];
  const contents: ElementContent[] = [];

  const chapterArticle = (chapter: ExportChapter, index: number, level: number, categories: Element[]): Element => {
    const targets: ExportTargets = {
      id: (slug, id) => `${slug}--${id}`,
      link: (_from, target) => {
        if (target.kind === 'external') return target.url;
        if (target.kind === 'static') return book.siteAddress + target.sitePath;
        if (target.kind === 'home' || (target.kind === 'chapter' && target.slug === '')) return '#contents';
        const to = chaptersBySlug.get(target.slug);
        if (!to) return `${book.siteAddress}${book.locale.urlPrefix}${target.slug}/`;
        return target.hash && to.ids.has(target.hash) ? `#${target.slug}--${target.hash}` : `#${target.slug}`;
      },
      image: imageSrc,
      headingLevel: (depth) => (depth === 2 ? level + 1 : OUT_OF_OUTLINE),
    };
    const prepared = prepareChapter(chapter.slug, chapter.html, config.basePath, book.locale.urlPrefix, targets, (e) =>
      answerLinkParagraph(e, strings, places),
    );
    if (prepared.answers.length) answersByChapter.set(chapter.slug, prepared.answers);
    const name = `c${index}`;
    pageRules.push(
      `.book-chapter-${index} { page: ${name}; }`,
      `@page ${name} { @top-center { content: ${cssString(chapter.title)}; } }`,
    );
    return h('article', { className: ['book-chapter', `book-chapter-${index}`], id: chapter.slug }, [
      ...(categories.length ? [h('div', { className: ['book-chapter-categories'] }, categories)] : []),
      h('h1', { className: ['book-chapter-title'], ariaLevel: String(level) }, [chapter.title]),
      h('div', { className: ['markdown'] }, prepared.content.children as ElementContent[]),
    ]);
  };

  let chapterIndex = 0;
  let partIndex = 0;
  /** Adds the entries at `depth` (0: the book's top level) to the body and the table of contents. */
  const addEntries = (entries: ExportEntry[], depth: number, pending: Element[]): ElementContent[] => {
    const items: ElementContent[] = [];
    for (const entry of entries) {
      if (entry.type === 'chapter') {
        const chapter = entry.chapter;
        body.push(chapterArticle(chapter, chapterIndex++, depth + 1, pending.splice(0)));
        items.push(
          h('li', {}, [
            h('a', { href: `#${chapter.slug}` }, [h('span', {}, [chapter.title]), ...pageOf(chapter.slug).slice(1, 2)]),
          ]),
        );
        continue;
      }
      if (depth === 0) {
        const id = `part-${++partIndex}`;
        body.push(
          h('section', { className: ['book-part'], id }, [
            h('h1', { className: ['book-part-title'], ariaLevel: '1' }, [entry.label]),
          ]),
        );
        items.push(
          h('li', { className: ['contents-part'] }, [
            h('a', { href: `#${id}` }, [h('span', {}, [entry.label]), ...pageOf(id).slice(1, 2)]),
            h('ol', {}, addEntries(entry.items, depth + 1, [])),
          ]),
        );
      } else {
        // A category inside a part: a heading above its first chapter.
        const heading = h('p', { role: 'heading', ariaLevel: String(depth + 1) }, [entry.label]);
        items.push(
          h('li', { className: ['contents-category'] }, [
            h('span', {}, [entry.label]),
            h('ol', {}, addEntries(entry.items, depth + 1, [...pending.splice(0), heading])),
          ]),
        );
      }
    }
    return items;
  };
  contents.push(...addEntries(book.entries, 0, []));

  // The answers appendix, in the chapters' order.
  const answers: ElementContent[] = [];
  for (const chapter of book.chapters) {
    const entries = answersByChapter.get(chapter.slug);
    if (entries) answers.push(...answerEntries(chapter, entries, strings, places, 2));
  }
  if (answers.length) {
    body.push(
      h('section', { className: ['book-answers'], id: 'answers' }, [
        h('h1', { ariaLevel: '1' }, [strings.exportBook.answers]),
        h('div', { className: ['markdown'] }, answers),
      ]),
    );
    contents.push(
      h('li', { className: ['contents-part'] }, [
        h('a', { href: '#answers' }, [h('span', {}, [strings.exportBook.answers]), ...pageOf('answers').slice(1, 2)]),
      ]),
    );
    pageRules.push(
      `.book-answers { page: answers; }`,
      `@page answers { @top-center { content: ${cssString(strings.exportBook.answers)}; } }`,
    );
  }

  const cover = h('section', { className: ['book-cover'] }, [
    ...(book.cover ? [h('img', { src: dataUrl(book.cover), alt: '' })] : []),
    h('p', { className: ['book-cover-title'] }, [book.title]),
    h('p', { className: ['book-cover-tagline'] }, [book.tagline]),
    h('p', { className: ['book-cover-meta'] }, [format(strings.exportBook.version, { version: book.version })]),
    h('p', { className: ['book-cover-meta'] }, [book.author]),
  ]);
  const toc = h('nav', { className: ['book-contents'], id: 'contents', ariaLabelledBy: ['contents-title'] }, [
    h('h1', { id: 'contents-title', ariaLevel: '1' }, [strings.exportBook.contents]),
    h('ol', {}, contents),
  ]);
  pageRules.push(
    `.book-contents { page: contents; }`,
    `@page contents { @top-center { content: ${cssString(strings.exportBook.contents)}; } }`,
  );
  const marginBox = `@page { @top-center { font: 9pt system-ui, "Noto Sans", "Noto Sans CJK SC", sans-serif; color: #556070; } }`;

  const root: Root = {
    type: 'root',
    children: [
      { type: 'doctype' },
      h('html', { lang: book.locale.htmlLang, dir: book.locale.direction, dataTheme: 'light' }, [
        h('head', {}, [
          h('meta', { charSet: 'utf-8' }),
          h('title', {}, [book.title]),
          h('meta', { name: 'author', content: book.author }),
          h('meta', { name: 'description', content: book.tagline }),
          h('meta', { name: 'keywords', content: book.keywords.join(', ') }),
          h('style', {}, [`${css}\n${marginBox}\n${pageRules.join('\n')}`]),
        ]),
        h('body', { className: ['book-export', 'render-all'] }, [cover, toc, ...body]),
      ]),
    ],
  };
  return {
    pageTargets: [...new Set(pageRefs.map((r) => r.id))],
    outlineHeadings: outlineHeadingsOf(root),
    html(pages) {
      for (const ref of pageRefs) {
        const page = pages?.get(ref.id);
        ref.node.children = [{ type: 'text', value: page === undefined ? PLACEHOLDER : String(page) }];
      }
      return toHtml(root);
    },
  };
}

/** The level a heading announces (aria-level, else its tag's; ARIA's default for role="heading" is 2). */
function headingLevelOf(node: Element): number | undefined {
  const tag = /^h([1-6])$/.exec(node.tagName);
  if (!tag && node.properties.role !== 'heading') return undefined;
  const level = Number(node.properties.ariaLevel ?? tag?.[1] ?? 2);
  return Number.isInteger(level) ? level : undefined;
}

/** The text of the headings of levels 1-6 (the outline's entries), in document order. */
function outlineHeadingsOf(root: Root): string[] {
  const texts: string[] = [];
  const visit = (nodes: Root['children'] | ElementContent[]) => {
    for (const node of nodes) {
      if (!isElement(node)) continue;
      const level = headingLevelOf(node);
      if (level !== undefined && level >= 1 && level <= 6) texts.push(textOf(node).replace(/\s+/g, ' ').trim());
      else visit(node.children);
    }
  };
  visit(root.children);
  return texts;
}
