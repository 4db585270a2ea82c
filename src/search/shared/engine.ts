import elasticlunr from 'elasticlunr';
import {
  CODE_QUERY_BOOSTS,
  decodePostings,
  expandDocuments,
  FIELD_BOOSTS,
  FIELD_TOKENS,
  RESULT_TYPES,
  SEARCH_FIELDS,
  type FieldTokens,
  type ResultType,
  type SearchDocument,
  type SearchField,
  type SearchIndexFile,
} from './index-format.js';
import {
  codeTokens,
  isSymbol,
  keywordsOf,
  mixedOf,
  mixedTokens,
  maximumMatchSegmenter,
  tokenize,
  ZH_STOP_WORDS,
  type CjkSegmenter,
} from './tokenize.js';

export interface SearchHit {
  doc: SearchDocument;
  score: number;
  /** The most important field the query matched in. */
  type: ResultType;
}

export interface SearchOptions {
  limit?: number;
  /** Only documents whose URL starts with this path (the search page's `ctx`). */
  urlPrefix?: string;
}

/** The documents' fields, and `i`, their id (elasticlunr's ref). */
type Fields = Record<SearchField | 'i', string | number>;

/** How much of its sections' scores a page's own result adds. */
const SECTION_SHARE = 0.3;

/** How much a code query's score grows in a document whose heading names every name of the query. */
const NAMED_IN_HEADING = 2;

/** Shorter query tokens match only themselves: "f" or "py" as prefixes would match hundreds of words. */
const MIN_PREFIX_LENGTH = 3;

/**
 * Queries expand tokens to every indexed word they start with (results while typing); this
 * instance's expansion leaves short tokens alone.
 */
function limitExpansion(inverted: elasticlunr.InvertedIndex): void {
  const expand = inverted.expandToken.bind(inverted);
  inverted.expandToken = (token, memo, root) =>
    token.length < MIN_PREFIX_LENGTH || isSymbol(token)
      ? inverted.hasToken(token)
        ? [token]
        : []
      : expand(token, memo, root);
}

/**
 * Whether a query is written as code: a dotted name (Object.keys, fs.readFileSync), a call
 * (Number()), a constructor call (new Map), a camelCase name (setTimeout, parseInt), a snake_case
 * one (node_modules), or one of JavaScript's operators (`===`, `=>`, `?.`).
 */
export function looksLikeCode(query: string): boolean {
  return (
    /[A-Za-z_$][\w$]*\.[A-Za-z_$]|[()]|\bnew [A-Z]|[a-z][A-Z]|[A-Za-z0-9]_[A-Za-z0-9]/.test(query) ||
    codeTokens(query, () => []).some(isSymbol)
  );
}

/**
 * `Array.prototype.map` names the method that JavaScript code calls on an array (`arr.map`):
 * the book's code never writes `prototype`, and its prose uses the word elsewhere, so a query
 * reads it as `Array.map`.
 */
const withoutPrototype = (query: string) => query.replace(/\.prototype\./gi, '.');

const CJK_TOKEN = /^[\u3400-\u9fff\uf900-\ufaff]+$/;

/**
 * The query side of search, the same in the browser and in the relevance tests: rebuilds an
 * elasticlunr index from the compact file and queries it with the build's tokenizer, with
 * Chinese cut by maximum matching against the index's own (jieba-made) vocabulary.
 */
export class SearchEngine {
  readonly documents: SearchDocument[];
  readonly language: 'en' | 'zh';
  private readonly index: elasticlunr.Index<Fields>;
  /** Cuts Chinese runs into the index's words: queries, and the text whose matches are highlighted. */
  readonly segment: CjkSegmenter;
  private readonly config: elasticlunr.FieldSearchConfig<Fields>;
  private readonly codeConfig: elasticlunr.FieldSearchConfig<Fields>;

  constructor(file: SearchIndexFile) {
    if (file.v !== 3) throw new Error(`Unsupported search index version ${String(file.v)}`);
    this.language = file.language;
    this.documents = expandDocuments(file);
    const index = new elasticlunr.Index<Fields>();
    // No pipeline: tokens arrive stemmed and segmented, and the default trimmer strips Chinese.
    index.pipeline.reset();
    index.setRef('i');
    index.saveDocument(false);
    for (const field of SEARCH_FIELDS) index.addField(field);
    const lengths = this.documents.map(() => SEARCH_FIELDS.map(() => 0));
    for (const doc of this.documents) index.documentStore.addDoc(doc.i, null as unknown as Fields);
    for (const field of SEARCH_FIELDS) limitExpansion(index.index[field]!);

    const tokens = file.tokens ? file.tokens.split(' ') : [];
    // Stop words are cut by jieba but never indexed: the matcher must still know them as words.
    const vocabulary = new Set<string>(ZH_STOP_WORDS);
    let longest = 2;
    tokens.forEach((token, t) => {
      if (CJK_TOKEN.test(token)) {
        vocabulary.add(token);
        if (token.length > longest) longest = token.length;
      }
      file.postings[t].split('|').forEach((list, f) => {
        const inverted = index.index[SEARCH_FIELDS[f]]!;
        for (const { doc, tf } of decodePostings(list)) {
          inverted.addToken(token, { ref: doc, tf });
          lengths[doc][f] += tf;
        }
      });
    });
    lengths.forEach((fieldLengths, doc) =>
      SEARCH_FIELDS.forEach((field, f) => index.documentStore.addFieldLength(doc, field, fieldLengths[f])),
    );
    this.index = index;
    this.segment = maximumMatchSegmenter(vocabulary, longest);
    const config = (boosts: Record<SearchField, number>) =>
      Object.fromEntries(
        SEARCH_FIELDS.map((field) => [field, { boost: boosts[field], bool: 'OR' as const, expand: true }]),
      ) as elasticlunr.FieldSearchConfig<Fields>;
    this.config = config(FIELD_BOOSTS);
    this.codeConfig = config(CODE_QUERY_BOOSTS);
  }

  private readonly headings = new Map<number, Set<string>>();

  /** The tokens of a document's heading (a page's title), as the heading field cuts them. */
  private headingTokens(doc: number): Set<string> {
    let tokens = this.headings.get(doc);
    if (!tokens) {
      const { s: heading, t: title } = this.documents[doc];
      this.headings.set(doc, (tokens = new Set(mixedTokens(heading ?? title, this.segment))));
    }
    return tokens;
  }

  /** The query cut each way the index cuts its fields (prose, code, keywords). */
  private queryTokensByKind(query: string): Record<FieldTokens, string[]> {
    const text = withoutPrototype(query);
    const unique = (tokens: string[]) => [...new Set(tokens)];
    const prose = unique(tokenize(text, this.segment));
    const code = unique(codeTokens(text, this.segment));
    return { prose, code, mixed: mixedOf(prose, code), keywords: keywordsOf(prose, code) };
  }

  /** The query as index tokens of every kind (what results and highlighting match against). */
  queryTokens(query: string): string[] {
    const { prose, code } = this.queryTokensByKind(query);
    return [...new Set([...prose, ...code])];
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const byKind = this.queryTokensByKind(query);
    if (!byKind.prose.length && !byKind.code.length) return [];
    const scores = new Map<number, number>();
    const code = looksLikeCode(query);
    const config = code ? this.codeConfig : this.config;
    // Each field is searched with the query cut as that field was cut when it was indexed.
    for (const field of SEARCH_FIELDS) {
      const tokens = byKind[FIELD_TOKENS[field]];
      if (!tokens.length) continue;
      const found = this.index.fieldSearch(tokens, field, config) as Record<string, number> | undefined;
      const boost = config[field]!.boost ?? 1;
      for (const ref in found) {
        const doc = Number(ref);
        scores.set(doc, (scores.get(doc) ?? 0) + found[ref] * boost);
      }
    }
    const names = byKind.mixed.filter((token) => !isSymbol(token));
    if (code && names.length) {
      // A heading (or title) that names every name of the query is the section about it:
      // `console.log` finds "print and console.log" before the chapter titled "Logging", and
      // `...rest` "Unpacking the rest with a star" before a section that only uses a rest element.
      for (const [doc, score] of scores)
        if (names.every((name) => this.headingTokens(doc).has(name))) scores.set(doc, score * NAMED_IN_HEADING);
    }
    // A chapter whose sections match is more about the query than one that only names it:
    // its title result gets a share of its sections' scores.
    const sectionTotals = new Map<number, number>();
    for (const [doc, score] of scores) {
      const parent = this.documents[doc].p;
      if (parent !== undefined) sectionTotals.set(parent, (sectionTotals.get(parent) ?? 0) + score);
    }
    for (const [page, total] of sectionTotals) scores.set(page, (scores.get(page) ?? 0) + SECTION_SHARE * total);
    const ranked = [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const hits: SearchHit[] = [];
    for (const [ref, score] of ranked) {
      const doc = this.documents[ref];
      if (options.urlPrefix && !doc.u.startsWith(options.urlPrefix)) continue;
      hits.push({ doc, score, type: 'Content' });
      if (options.limit && hits.length >= options.limit) break;
    }
    const expanded = new Map<string, string[]>();
    for (const hit of hits) hit.type = this.resultType(hit.doc.i, byKind, expanded);
    return hits;
  }

  private resultType(doc: number, byKind: Record<FieldTokens, string[]>, expanded: Map<string, string[]>): ResultType {
    for (const field of ['t', 's', 'd', 'k', 'c', 'j', 'n'] as const) {
      const inverted = this.index.index[field]!;
      for (const token of byKind[FIELD_TOKENS[field]]) {
        const key = `${field} ${token}`;
        let keys = expanded.get(key);
        if (!keys) expanded.set(key, (keys = inverted.expandToken(token)));
        if (keys.some((k) => inverted.getTermFrequency(k, doc) > 0)) return RESULT_TYPES[field];
      }
    }
    return 'Content';
  }
}
