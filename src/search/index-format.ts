/**
 * The search index file (`search-index.json`), shared by the build and the browser.
 * Field names follow the spec's search document: i id, t title, s section, u url, h hash,
 * b breadcrumbs, p parent page.
 */
export interface SearchDocument {
  i: number;
  t: string;
  s?: string;
  u: string;
  h?: string;
  b: string[];
  /** Id of the page's own (title) document, for section documents. */
  p?: number;
  /** Text the snippet is cut from. */
  x: string;
  /** Token count of each indexed field, for length normalisation. */
  l: number[];
}

/** Indexed fields, in the order of SearchDocument.l; their boosts rank title over heading over text. */
export const SEARCH_FIELDS = ['t', 's', 'k', 'd', 'c'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];
export const FIELD_BOOSTS: Record<SearchField, number> = { t: 10, s: 6, k: 4, d: 2, c: 1 };
/** What a hit on each field is called in the results (spec: Title, Heading, Description, Keywords, Content). */
export const RESULT_TYPES: Record<SearchField, string> = { t: 'Title', s: 'Heading', k: 'Keywords', d: 'Description', c: 'Content' };

export interface SearchIndexFile {
  version: 1;
  language: 'en' | 'zh';
  documents: SearchDocument[];
  /** field -> token -> flat [docId, termFrequency, docId, termFrequency, …] */
  postings: Record<SearchField, Record<string, number[]>>;
}
