import type { BookModel } from '../../shared/model/book.js';
import type { PageModel, SiteData } from '../../shared/model/page.js';
import { buildSearchIndexes, type BuiltIndex } from '../../search/node/build-index.js';
import { ChineseSegmenter } from '../../search/node/jieba.js';
import { codeFingerprint, hashText, type DiskCache } from '../../cache/disk-cache.js';
import type { SiteFiles } from '../../output/write-site.js';

/**
 * Watch mode's segmenter with jieba's whole dictionary: loading it takes more than a second and
 * nodejieba holds one dictionary per process anyway, so every Builder of the process (a config
 * change starts a new one) shares it.
 */
let sharedSegmenter: ChineseSegmenter | undefined;
const fullDictionarySegmenter = () => (sharedSegmenter ??= new ChineseSegmenter(undefined));

/**
 * The build's step that makes the search files: the pages in, each locale's index and text
 * files out, with their versions in the site data. It reads and writes them in the build cache's
 * `search` namespace, keyed by the pages' searchable text.
 */
export class SearchIndexer {
  private segmenter?: ChineseSegmenter;
  private searchKey?: string;

  constructor(
    private readonly disk: DiskCache,
    /** Watch mode (see BuildMode): the full dictionary, stable file versions, and the index after the pages. */
    private readonly watching: boolean,
  ) {}

  /**
   * Adds the search files to `files` and their versions to the site data; in watch mode returns
   * a function that builds them later instead: no page depends on the index's content there (its
   * version is constant), so the index comes after the pages are out and the browser shows the edit.
   */
  add(
    pages: PageModel[],
    book: BookModel,
    sites: Record<string, SiteData>,
    files: SiteFiles,
    version: (contents: string) => string,
  ): (() => SiteFiles) | undefined {
    const searchFiles = (): SiteFiles => {
      const out: SiteFiles = new Map();
      for (const index of this.indexes(pages, book)) {
        out.set(index.file, index.json);
        for (const [file, json] of index.textFiles) out.set(file, json);
        sites[index.locale].search.indexHash = version(index.json);
        // One version for all of a locale's text files: any text changing refreshes them all.
        sites[index.locale].search.textHash = version(index.textFiles.map(([, json]) => json).join('\n'));
      }
      return out;
    };
    if (!this.watching) {
      for (const [name, contents] of searchFiles()) files.set(name, contents);
      return undefined;
    }
    for (const locale of book.locales)
      Object.assign(sites[locale.code].search, { indexHash: version(''), textHash: version('') });
    return searchFiles;
  }

  /**
   * Watch mode: loads jieba's full dictionary now (more than a second) instead of at the first
   * edit, which would then wait for it.
   */
  loadSegmenter(): void {
    if (this.watching) (this.segmenter ??= fullDictionarySegmenter()).load();
  }

  /**
   * The search indexes, reused from the cache when no page's searchable text changed. Watch mode
   * segments with the full dictionary: its entries are its own (`dev-` names), and only the
   * latest is kept, for the next start.
   */
  private indexes(pages: PageModel[], book: BookModel): BuiltIndex[] {
    const useDisk = this.disk.enabled;
    let key = '';
    if (useDisk) {
      this.searchKey ??= codeFingerprint('search');
      const inputs = pages
        .filter((p) => p.kind === 'chapter')
        .map((p) => [p.locale, p.route, p.title, p.description, p.keywords, p.breadcrumbs, p.unlisted, p.sections]);
      key =
        (this.watching ? 'dev-' : '') +
        hashText(
          this.searchKey,
          this.watching ? 'full dictionary' : '',
          JSON.stringify(inputs),
          JSON.stringify(book.locales),
        ).slice(0, 40);
      const stored = this.disk.readJson<BuiltIndex[]>('search', key);
      if (stored) return stored;
    }
    if (this.watching) this.segmenter ??= fullDictionarySegmenter();
    const built = buildSearchIndexes(pages, book, this.segmenter);
    if (useDisk) {
      this.disk.writeJson('search', key, built);
      if (this.watching) this.disk.removeWhere('search', (name) => name.startsWith('dev-') && name !== key);
    }
    return built;
  }
}
