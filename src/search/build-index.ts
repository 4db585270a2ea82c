import type { BookModel } from '../book/types.js';
import type { PageModel } from '../pages/types.js';
import { ChineseSegmenter } from './jieba.js';
import { SEARCH_FIELDS, type SearchDocument, type SearchField, type SearchIndexFile } from './index-format.js';
import { tokenize, type CjkSegmenter } from './tokenize.js';

export interface BuiltIndex { locale: string; file: string; json: string; documents: number }

/** Longest snippet source kept per document: enough for a 50-character window around most hits. */
const MAX_SNIPPET_SOURCE = 400;

/** One index per locale, from the page models (never by re-reading files or HTML). */
export function buildSearchIndexes(pages: PageModel[], book: BookModel, segmenter?: ChineseSegmenter): BuiltIndex[] {
  const indexed = pages.filter((p) => p.kind === 'chapter' && !p.unlisted);
  const chinese = segmenter ?? new ChineseSegmenter(() => indexed.map(searchableText).join('\n'));
  const segment: CjkSegmenter = (run) => chinese.segment(run);
  return book.locales.map((locale) => {
    const localePages = indexed.filter((p) => p.locale === locale.code);
    const index = buildIndex(localePages, locale.code.startsWith('zh') ? 'zh' : 'en', segment);
    const json = JSON.stringify(index);
    return { locale: locale.code, file: `${locale.urlPrefix}search-index.json`, json, documents: index.documents.length };
  });
}

export function buildIndex(pages: PageModel[], language: 'en' | 'zh', segment: CjkSegmenter): SearchIndexFile {
  const documents: SearchDocument[] = [];
  // Null-prototype maps: tokens such as "constructor" must not find Object.prototype members.
  const postings = Object.fromEntries(SEARCH_FIELDS.map((f) => [f, Object.create(null) as Record<string, number[]>])) as SearchIndexFile['postings'];
  const add = (doc: Omit<SearchDocument, 'i' | 'l'>, fields: Partial<Record<SearchField, string>>) => {
    const i = documents.length;
    const lengths = SEARCH_FIELDS.map((field) => {
      const tokens = fields[field] ? tokenize(fields[field]!, segment) : [];
      const counts = new Map<string, number>();
      for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
      for (const [token, count] of counts) (postings[field][token] ??= []).push(i, count);
      return tokens.length;
    });
    documents.push({ i, ...doc, l: lengths });
    return i;
  };
  for (const page of pages) {
    const breadcrumbs = page.breadcrumbs.slice(1, -1).map((b) => b.label);
    const intro = page.sections.find((s) => !s.headingId)?.text ?? '';
    const pageId = add(
      { t: page.title, u: page.route, b: breadcrumbs, x: clip(page.description || intro) },
      { t: page.title, k: page.keywords.join(' '), d: page.description, c: intro },
    );
    for (const section of page.sections) {
      if (!section.headingId) continue;
      add(
        { t: page.title, s: section.heading, u: page.route, h: `#${section.headingId}`, b: breadcrumbs, p: pageId, x: clip(section.text) },
        { s: section.heading, c: section.text },
      );
    }
  }
  return { version: 1, language, documents, postings };
}

function searchableText(page: PageModel): string {
  return `${page.title} ${page.description} ${page.keywords.join(' ')} ${page.sections.map((s) => `${s.heading ?? ''} ${s.text}`).join(' ')}`;
}

function clip(text: string): string {
  if (text.length <= MAX_SNIPPET_SOURCE) return text;
  const cut = text.lastIndexOf(' ', MAX_SNIPPET_SOURCE);
  return text.slice(0, cut > MAX_SNIPPET_SOURCE * 0.8 ? cut : MAX_SNIPPET_SOURCE);
}
