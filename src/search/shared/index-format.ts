/**
 * The search index file (`search-index.json`), shared by the build and the browser.
 *
 * The file is compact: page-level data (title, url, breadcrumbs) is stored once per page and
 * shared by that page's section documents, each posting list is one string of base-36 deltas,
 * and a document keeps only the opening of its text, for snippets until its page's text file
 * (below) has arrived. The browser expands it into the spec's search documents (i id, t title,
 * s section, u url, h hash, b breadcrumbs, p parent page) and rebuilds an elasticlunr index
 * from the postings.
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
  /** Index of the document's page in the index file: names the text file holding its full text. */
  g: number;
  /**
   * The opening of the text snippets are cut from (page description or section), shown until
   * the full text arrives from its page's text file.
   */
  x: string;
}

/**
 * Indexed fields: title, heading (`s`), keywords (the page's front matter, a section's
 * `::keywords`), description, text (`c`), the JavaScript code of a section's comparisons (`j`) and
 * the inline code of its heading and text (`n`). Their boosts rank title over heading over
 * keywords, description and text. `j` and `n` are what a JavaScript engineer's names and
 * operators find (setTimeout, Object.keys, `===`, `?.`): the section that teaches the Python
 * counterpart, which shows the JavaScript in a comparison or names it in its prose and tables.
 */
export const SEARCH_FIELDS = ['t', 's', 'k', 'd', 'c', 'j', 'n'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];
export const FIELD_BOOSTS: Record<SearchField, number> = { t: 10, s: 6, k: 4, d: 2, c: 1, j: 2, n: 3 };
/**
 * How each field's text is cut into tokens, at build time and for the query alike (see
 * tokenize.ts): prose is stemmed words; code is identifiers as written, member accesses and
 * JavaScript's operators; a heading is prose with the names prose cannot make (`console.log`,
 * `node_modules`, `===`); keywords are prose and code at once.
 */
export type FieldTokens = 'prose' | 'code' | 'mixed' | 'keywords';
export const FIELD_TOKENS: Record<SearchField, FieldTokens> = {
  t: 'prose',
  s: 'mixed',
  k: 'keywords',
  d: 'prose',
  c: 'prose',
  j: 'code',
  n: 'code',
};
/**
 * The boosts for a query written as code (see looksLikeCode): it names an API or an operator, so
 * it weighs more in the code a section shows (j) and names (n), and less in titles and headings,
 * where the same words are English ("The map", "Exception objects", "Literal").
 */
export const CODE_QUERY_BOOSTS: Record<SearchField, number> = { t: 5, s: 5, k: 4, d: 2, c: 2, j: 6, n: 6 };
/** What a hit on each field is called in the results (spec: Title, Heading, Description, Keywords, Content). */
export type ResultType = 'Title' | 'Heading' | 'Keywords' | 'Description' | 'Content';
export const RESULT_TYPES: Record<SearchField, ResultType> = {
  t: 'Title',
  s: 'Heading',
  k: 'Keywords',
  d: 'Description',
  c: 'Content',
  j: 'Content',
  n: 'Content',
};

/** A page: [title, url, breadcrumbs]. */
export type PageEntry = [string, string, string[]];
/**
 * A document: [page, heading, hash without '#', snippet source]. A page's own document has
 * heading '' and comes right before its sections. Field lengths (token counts, for length
 * normalisation) are not stored: they are the sums of the document's term frequencies.
 */
export type DocumentEntry = [number, string, string, string];

export interface SearchIndexFile {
  /** 3: seven fields (`n` added) and code tokens (operators, identifiers as written, member accesses). */
  v: 3;
  language: 'en' | 'zh';
  pages: PageEntry[];
  docs: DocumentEntry[];
  /** The indexed tokens, sorted, separated by spaces (no token contains one). */
  tokens: string;
  /**
   * For each token, its posting lists in SEARCH_FIELDS order, separated by '|' (trailing empty
   * lists left off). A list is comma-separated entries `delta` or `delta:tf`, base 36, where
   * delta is the document id minus the previous entry's (the first: minus 0) and a missing tf
   * means 1.
   */
  postings: string[];
}

/**
 * A page's text file (`search-text/<page>.json`, next to the index): the full plain text of each
 * of the page's documents, in document order, for snippets around the match. The texts are split
 * by page so that a search downloads only the texts of the results it shows (a few pages), not
 * the whole book's, which was larger than the index itself.
 */
export interface SearchTextFile {
  v: 2;
  /** Id of the page's first document (its own); texts[k] is the text of document first + k. */
  first: number;
  /** Text of each document: the page's description and introduction, or the section's text. */
  texts: string[];
}

/** Where a page's text file lives, relative to the index. */
export const textFileName = (page: number) => `search-text/${page}.json`;

/**
 * The full texts of a page's documents by document id, when the file fits the documents the
 * index lists for that page; else undefined (keep the short snippets).
 */
export function textsFor(
  file: SearchTextFile,
  page: number,
  documents: SearchDocument[],
): Map<number, string> | undefined {
  if (file.v !== 2 || !Number.isInteger(file.first) || !Array.isArray(file.texts)) return undefined;
  const own = documents.filter((d) => d.g === page);
  const fits =
    own.length === file.texts.length &&
    own.every((d, k) => d.i === file.first + k && typeof file.texts[k] === 'string');
  return fits ? new Map(own.map((d, k) => [d.i, file.texts[k]])) : undefined;
}

export interface Posting {
  doc: number;
  tf: number;
}

export function encodePostings(postings: Posting[]): string {
  let previous = 0;
  return postings
    .map(({ doc, tf }) => {
      const entry = (doc - previous).toString(36) + (tf === 1 ? '' : `:${tf.toString(36)}`);
      previous = doc;
      return entry;
    })
    .join(',');
}

export function decodePostings(encoded: string): Posting[] {
  if (!encoded) return [];
  const postings: Posting[] = [];
  let doc = 0;
  for (const entry of encoded.split(',')) {
    const colon = entry.indexOf(':');
    doc += parseInt(colon < 0 ? entry : entry.slice(0, colon), 36);
    postings.push({ doc, tf: colon < 0 ? 1 : parseInt(entry.slice(colon + 1), 36) });
  }
  return postings;
}

/** Expands the file's compact documents into the spec's search documents. */
export function expandDocuments(file: SearchIndexFile): SearchDocument[] {
  let pageDoc = 0;
  return file.docs.map(([page, heading, hash, snippet], i) => {
    const [title, url, breadcrumbs] = file.pages[page];
    if (!heading) {
      pageDoc = i;
      return { i, t: title, u: url, b: breadcrumbs, g: page, x: snippet };
    }
    return { i, t: title, s: heading, u: url, h: `#${hash}`, b: breadcrumbs, p: pageDoc, g: page, x: snippet };
  });
}
