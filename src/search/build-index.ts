import type { BookModel } from '../book/types.js';
import type { PageModel } from '../pages/types.js';
import { ChineseSegmenter } from './jieba.js';
import { encodePostings, SEARCH_FIELDS, type DocumentEntry, type PageEntry, type Posting, type SearchField, type SearchIndexFile } from './index-format.js';
import { tokenize, type CjkSegmenter } from './tokenize.js';

export interface BuiltIndex { locale: string; file: string; json: string; documents: number }

/**
 * Characters of each document's text kept for snippets. The full text would make the index
 * bigger than the book itself; the opening of a section gives a readable snippet (with the
 * match highlighted when it is there) at about a third of the cost. Chinese carries roughly
 * twice the meaning per character, so it keeps fewer.
 */
export const SNIPPET_SOURCE_CHARS: Record<'en' | 'zh', number> = { en: 100, zh: 36 };

/** One index per locale, from the page models (never by re-reading files or HTML). */
export function buildSearchIndexes(pages: PageModel[], book: BookModel, segmenter?: ChineseSegmenter): BuiltIndex[] {
  const indexed = pages.filter((p) => p.kind === 'chapter' && !p.unlisted);
  const chinese = segmenter ?? new ChineseSegmenter(() => indexed.map(searchableText).join('\n'));
  const segment: CjkSegmenter = (run) => chinese.segment(run);
  return book.locales.map((locale) => {
    const localePages = indexed.filter((p) => p.locale === locale.code);
    const index = buildIndex(localePages, locale.code.startsWith('zh') ? 'zh' : 'en', segment);
    const json = JSON.stringify(index);
    return { locale: locale.code, file: `${locale.urlPrefix}search-index.json`, json, documents: index.docs.length };
  });
}

export function buildIndex(pages: PageModel[], language: 'en' | 'zh', segment: CjkSegmenter, snippetChars = SNIPPET_SOURCE_CHARS[language]): SearchIndexFile {
  const pageEntries: PageEntry[] = [];
  const docs: DocumentEntry[] = [];
  // Null-prototype map: tokens such as "constructor" must not find Object.prototype members.
  const postings = Object.create(null) as Record<string, Posting[][]>;
  const add = (page: number, heading: string, hash: string, snippet: string, fields: Partial<Record<SearchField, string>>) => {
    const doc = docs.length;
    SEARCH_FIELDS.forEach((field, f) => {
      const counts = new Map<string, number>();
      for (const token of fields[field] ? tokenize(fields[field]!, segment) : []) {
        // A lone Chinese character in running text matches almost every section: only
        // titles, headings, keywords and descriptions index them.
        if (field === 'c' && isSingleCjk(token)) continue;
        counts.set(token, (counts.get(token) ?? 0) + 1);
      }
      for (const [token, tf] of counts) {
        const lists = (postings[token] ??= SEARCH_FIELDS.map(() => []));
        lists[f].push({ doc, tf });
      }
    });
    docs.push([page, heading, hash, clip(snippet, snippetChars)]);
  };
  for (const page of pages) {
    const pageIndex = pageEntries.length;
    pageEntries.push([page.title, page.route, page.breadcrumbs.slice(1, -1).map((b) => b.label)]);
    const intro = page.sections.find((s) => !s.headingId)?.text ?? '';
    add(pageIndex, '', '', page.description || intro, { t: page.title, k: page.keywords.join(' '), d: page.description, c: intro });
    for (const section of page.sections) {
      if (!section.headingId || !section.heading) continue;
      add(pageIndex, section.heading, section.headingId, section.text, { s: section.heading, c: section.text });
    }
  }
  const tokens = Object.keys(postings).sort();
  const encoded = tokens.map((token) => {
    const lists = postings[token].map(encodePostings);
    while (lists.length && !lists[lists.length - 1]) lists.pop();
    return lists.join('|');
  });
  return { v: 2, language, pages: pageEntries, docs, tokens: tokens.join(' '), postings: encoded };
}

const isSingleCjk = (token: string) => token.length === 1 && /[\u3400-\u9fff\uf900-\ufaff]/.test(token);

function searchableText(page: PageModel): string {
  return `${page.title} ${page.description} ${page.keywords.join(' ')} ${page.sections.map((s) => `${s.heading ?? ''} ${s.text}`).join(' ')}`;
}

/** The opening of a text, cut at a word boundary when there is one near the limit. */
export function clip(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.lastIndexOf(' ', chars);
  return text.slice(0, cut > chars * 0.7 ? cut : chars);
}
