import type { BookModel } from '../../shared/model/book.js';
import type { PageModel } from '../../shared/model/page.js';
import { ChineseSegmenter } from './jieba.js';
import {
  encodePostings,
  SEARCH_FIELDS,
  textFileName,
  type DocumentEntry,
  type PageEntry,
  type Posting,
  type SearchField,
  type SearchIndexFile,
  type SearchTextFile,
} from '../shared/index-format.js';
import { languageOfLocale, type SearchLanguage } from '../shared/search-language.js';
import { codeTokens, keywordTokens, mixedTokens, tokenize, type CjkSegmenter } from '../shared/tokenize.js';

export interface BuiltIndex {
  locale: string;
  /** Output path of the index and its JSON. */
  file: string;
  json: string;
  /** Output path and JSON of each page's text file (next to the index), in page order. */
  textFiles: [file: string, json: string][];
  documents: number;
}

/**
 * Characters of each document's text the index keeps, for the snippets shown before the page's
 * text file arrives (the full text would make the index bigger than the book itself). Snippets are
 * at most 50 characters; an opening this long shows one without wasting index bytes. Chinese
 * carries roughly twice the meaning per character, so it keeps fewer.
 */
export const SNIPPET_SOURCE_CHARS: Record<'en' | 'zh', number> = { en: 50, zh: 24 };

/** The index and one text file per page (page i's file is texts[i]). */
export interface BuiltLocaleIndex {
  index: SearchIndexFile;
  texts: SearchTextFile[];
}

/** One index per locale, from the page models (never by re-reading files or HTML). */
export function buildSearchIndexes(pages: PageModel[], book: BookModel, segmenter?: ChineseSegmenter): BuiltIndex[] {
  const indexed = pages.filter((p) => p.kind === 'chapter' && !p.unlisted);
  const chinese = segmenter ?? new ChineseSegmenter(() => indexed.map(searchableText).join('\n'));
  const segment: CjkSegmenter = (run) => chinese.segment(run);
  return book.locales.map((locale) => {
    const localePages = indexed.filter((p) => p.locale === locale.code);
    // The config allows only locales in a language the search serves (config/load-config.ts).
    const language = languageOfLocale(locale.code) as SearchLanguage;
    const { index, texts } = buildLocaleIndex(localePages, language, segment);
    return {
      locale: locale.code,
      file: `${locale.urlPrefix}search-index.json`,
      json: JSON.stringify(index),
      textFiles: texts.map((text, page) => [`${locale.urlPrefix}${textFileName(page)}`, JSON.stringify(text)]),
      documents: index.docs.length,
    };
  });
}

/** The index alone (relevance and format tests). */
export function buildIndex(
  pages: PageModel[],
  language: 'en' | 'zh',
  segment: CjkSegmenter,
  snippetChars = SNIPPET_SOURCE_CHARS[language],
): SearchIndexFile {
  return buildLocaleIndex(pages, language, segment, snippetChars).index;
}

/** The index and its pages' text files, which hold the full text of every document. */
export function buildLocaleIndex(
  pages: PageModel[],
  language: 'en' | 'zh',
  segment: CjkSegmenter,
  snippetChars = SNIPPET_SOURCE_CHARS[language],
): BuiltLocaleIndex {
  const pageEntries: PageEntry[] = [];
  const docs: DocumentEntry[] = [];
  const texts: SearchTextFile[] = [];
  // Null-prototype map: tokens such as "constructor" must not find Object.prototype members.
  const postings = Object.create(null) as Record<string, Posting[][]>;
  const add = (
    page: number,
    heading: string,
    hash: string,
    text: string,
    fields: Partial<Record<SearchField, string[]>>,
  ) => {
    const doc = docs.length;
    SEARCH_FIELDS.forEach((field, f) => {
      const counts = new Map<string, number>();
      for (const token of fields[field] ?? []) {
        // A lone Chinese character in running text matches almost every section: only
        // titles, headings, keywords and descriptions index them.
        if ((field === 'c' || field === 'j' || field === 'n') && isSingleCjk(token)) continue;
        counts.set(token, (counts.get(token) ?? 0) + 1);
      }
      for (const [token, tf] of counts) {
        const lists = (postings[token] ??= SEARCH_FIELDS.map(() => []));
        lists[f].push({ doc, tf });
      }
    });
    const plain = text.replace(/\s+/g, ' ').trim();
    docs.push([page, heading, hash, clip(plain, snippetChars)]);
    texts[page].texts.push(plain);
  };
  // Each field is cut as FIELD_TOKENS says, the way the engine cuts the query for it.
  const prose = (text: string | undefined) => (text ? tokenize(text, segment) : []);
  const code = (...texts: (string | undefined)[]) => texts.flatMap((text) => (text ? codeTokens(text, segment) : []));
  const mixed = (text: string | undefined) => (text ? mixedTokens(text, segment) : []);
  /** Keywords are a set: each is read on its own (`...` alone is the operator), each token counted once. */
  const keywords = (list: string[] | undefined) => [
    ...new Set((list ?? []).flatMap((keyword) => keywordTokens(keyword, segment))),
  ];
  for (const page of pages) {
    const pageIndex = pageEntries.length;
    texts.push({ v: 2, first: docs.length, texts: [] });
    pageEntries.push([page.title, page.route, page.breadcrumbs.slice(1, -1).map((b) => b.label)]);
    const intro = page.sections.find((s) => !s.headingId);
    // The page's own result is about the page: its snippet comes from the description, then the introduction.
    add(pageIndex, '', '', [page.description, intro?.text].filter(Boolean).join(' '), {
      t: prose(page.title),
      k: keywords(page.keywords),
      d: prose(page.description),
      c: prose(intro?.text),
      j: code(intro?.javascript),
      n: code(intro?.code),
    });
    for (const section of page.sections) {
      if (!section.headingId || !section.heading) continue;
      add(pageIndex, section.heading, section.headingId, section.text, {
        s: mixed(section.heading),
        k: keywords(section.keywords),
        c: prose(section.text),
        j: code(section.javascript),
        n: code(section.headingCode, section.code),
      });
    }
  }
  const tokens = Object.keys(postings).sort();
  const encoded = tokens.map((token) => {
    const lists = postings[token].map(encodePostings);
    while (lists.length && !lists[lists.length - 1]) lists.pop();
    return lists.join('|');
  });
  return { index: { v: 3, language, pages: pageEntries, docs, tokens: tokens.join(' '), postings: encoded }, texts };
}

const isSingleCjk = (token: string) => token.length === 1 && /[\u3400-\u9fff\uf900-\ufaff]/.test(token);

function searchableText(page: PageModel): string {
  const sections = page.sections.map((s) => `${s.heading ?? ''} ${s.keywords?.join(' ') ?? ''} ${s.text}`);
  return `${page.title} ${page.description} ${page.keywords.join(' ')} ${sections.join(' ')}`;
}

/**
 * The opening of a text in at most `chars` characters, cut at a word boundary when there is one
 * near the limit and ending in '…' when cut, so the reader sees the snippet goes on.
 */
export function clip(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const room = chars - 1;
  const cut = text.lastIndexOf(' ', room);
  return `${text.slice(0, cut > room * 0.7 ? cut : room)}…`;
}
