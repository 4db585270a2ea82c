import { describe, expect, it } from 'vitest';
import { buildIndex, buildLocaleIndex, clip } from '../../src/search/node/build-index.js';
import {
  decodePostings,
  encodePostings,
  expandDocuments,
  SEARCH_FIELDS,
  textsFor,
  type SearchIndexFile,
} from '../../src/search/shared/index-format.js';
import { SearchEngine } from '../../src/search/shared/engine.js';
import type { PageModel } from '../../src/shared/model/page.js';
import type { CjkSegmenter } from '../../src/search/shared/tokenize.js';

/** Splits Chinese runs into pairs of characters: enough to test the index without jieba. */
const pairs: CjkSegmenter = (run) => run.match(/.{1,2}/gu) ?? [];

function page(
  slug: string,
  title: string,
  sections: {
    id?: string;
    heading?: string;
    text: string;
    code?: string;
    headingCode?: string;
    javascript?: string;
    keywords?: string[];
  }[],
  extra: Partial<PageModel> = {},
): PageModel {
  return {
    kind: 'chapter',
    locale: 'en',
    slug,
    route: `/book/${slug}/`,
    outputFile: `${slug}/index.html`,
    title,
    documentTitle: title,
    description: '',
    keywords: [],
    toc: [],
    unlisted: false,
    fallback: false,
    alternates: [],
    headings: [],
    links: [],
    warnings: [],
    breadcrumbs: [
      { label: 'Home', href: '/book/' },
      { label: 'Part 1', href: '' },
      { label: title, href: '' },
    ],
    sections: sections.map(({ id, ...s }) => ({ headingId: id, depth: id ? 2 : undefined, ...s })),
    ...extra,
  };
}

const pages = [
  page(
    'dictionary',
    'Dictionaries',
    [
      { text: 'A dict maps keys to values.' },
      {
        id: 'merging',
        heading: 'Merging dictionaries',
        text: 'Use the | operator to merge two dictionaries. Merge merge.',
      },
      {
        id: 'constructor',
        heading: 'The constructor',
        text: 'dict() builds one; constructor and __proto__ are just words here.',
      },
    ],
    { description: 'Python dict versus Map.', keywords: ['dict', 'hashmap'] },
  ),
  page('set', 'Sets', [{ text: 'A set holds unique values.' }]),
];

describe('encodePostings / decodePostings', () => {
  it('round-trips base-36 deltas with term frequencies', () => {
    const postings = [
      { doc: 0, tf: 1 },
      { doc: 5, tf: 3 },
      { doc: 40, tf: 1 },
      { doc: 41, tf: 40 },
    ];
    expect(encodePostings(postings)).toBe('0,5:3,z,1:14');
    expect(decodePostings(encodePostings(postings))).toEqual(postings);
    expect(decodePostings('')).toEqual([]);
  });
});

describe('buildIndex', () => {
  const file = buildIndex(pages, 'en', pairs);

  it('stores page data once and one document per page and per section', () => {
    expect(file.pages).toEqual([
      ['Dictionaries', '/book/dictionary/', ['Part 1']],
      ['Sets', '/book/set/', ['Part 1']],
    ]);
    expect(file.docs.map((d) => d.slice(0, 3))).toEqual([
      [0, '', ''],
      [0, 'Merging dictionaries', 'merging'],
      [0, 'The constructor', 'constructor'],
      [1, '', ''],
    ]);
    const docs = expandDocuments(file);
    expect(docs[1]).toEqual({
      i: 1,
      t: 'Dictionaries',
      s: 'Merging dictionaries',
      u: '/book/dictionary/',
      h: '#merging',
      b: ['Part 1'],
      p: 0,
      g: 0,
      x: 'Use the | operator to merge two dictionaries.…',
    });
    expect(docs[0]).toMatchObject({
      i: 0,
      t: 'Dictionaries',
      u: '/book/dictionary/',
      g: 0,
      x: 'Python dict versus Map. A dict maps keys to…',
    });
    expect(docs[0].p).toBeUndefined();
  });

  it('indexes each field with stemmed tokens and term frequencies', () => {
    const tokens = file.tokens.split(' ');
    const lists = (token: string) => file.postings[tokens.indexOf(token)].split('|');
    expect(tokens).toEqual([...tokens].sort());
    const merge = lists('merg');
    expect(decodePostings(merge[SEARCH_FIELDS.indexOf('s')])).toEqual([{ doc: 1, tf: 1 }]);
    expect(decodePostings(merge[SEARCH_FIELDS.indexOf('c')])).toEqual([{ doc: 1, tf: 3 }]);
    expect(decodePostings(lists('dictionari')[SEARCH_FIELDS.indexOf('t')])).toEqual([{ doc: 0, tf: 1 }]);
    expect(tokens).not.toContain('the');
  });

  it("indexes code as code: the comparisons' JavaScript (j), inline code (n), a section's keywords (k)", () => {
    const index = buildIndex(
      [
        page('equality', 'Variables', [
          { text: 'Intro.' },
          {
            id: 'identity',
            heading: 'Identity and ===',
            text: 'Python has == where JavaScript has ===.',
            code: '==\n===',
            javascript: 'console.log(a === b);',
            keywords: ['!==', 'strict equality'],
          },
        ]),
      ],
      'en',
      pairs,
    );
    expect(index.v).toBe(3);
    const tokens = index.tokens.split(' ');
    const lists = (token: string) => index.postings[tokens.indexOf(token)].split('|');
    const field = (token: string, f: (typeof SEARCH_FIELDS)[number]) =>
      decodePostings(lists(token)[SEARCH_FIELDS.indexOf(f)] ?? '');
    expect(field('===', 's')).toEqual([{ doc: 1, tf: 1 }]);
    expect(field('===', 'j')).toEqual([{ doc: 1, tf: 1 }]);
    expect(field('===', 'n')).toEqual([{ doc: 1, tf: 1 }]);
    expect(field('===', 'c')).toEqual([]);
    expect(field('!==', 'k')).toEqual([{ doc: 1, tf: 1 }]);
    expect(field('console.log', 'j')).toEqual([{ doc: 1, tf: 1 }]);
    // Keywords are read both ways: "strict equality" as prose (equal) and as code (equality).
    expect(field('equal', 'k')).toEqual([{ doc: 1, tf: 1 }]);
    expect(field('equality', 'k')).toEqual([{ doc: 1, tf: 1 }]);
    const engine = new SearchEngine(JSON.parse(JSON.stringify(index)) as SearchIndexFile);
    expect(engine.search('!==')[0]).toMatchObject({ type: 'Keywords', doc: { h: '#identity' } });
    expect(engine.search('===')[0].doc.h).toBe('#identity');
  });

  it('keeps only the opening of long texts in the index, marked as cut', () => {
    const long = buildIndex([page('x', 'X', [{ text: 'word '.repeat(100) }])], 'en', pairs, 40);
    expect(long.docs[0][3].length).toBeLessThanOrEqual(40);
    expect(long.docs[0][3].endsWith('…')).toBe(true);
    expect(clip('alpha beta gamma delta', 12)).toBe('alpha beta…');
    expect(clip('alpha beta', 12)).toBe('alpha beta');
    expect(clip('一二三四五六七八九十', 6)).toBe('一二三四五…');
  });

  it('is searchable by the browser engine, including words that name Object.prototype members', () => {
    // As the browser gets it: through JSON.
    const engine = new SearchEngine(JSON.parse(JSON.stringify(file)) as SearchIndexFile);
    expect(engine.search('merge')[0]).toMatchObject({ type: 'Heading', doc: { h: '#merging' } });
    expect(engine.search('constructor')[0].doc.h).toBe('#constructor');
    expect(engine.search('__proto__').length).toBeGreaterThan(0);
    expect(engine.search('hashmap')[0]).toMatchObject({ type: 'Keywords', doc: { i: 0 } });
    expect(engine.search('unique')[0]).toMatchObject({ type: 'Content', doc: { u: '/book/set/' } });
    expect(engine.search('sets')[0]).toMatchObject({ type: 'Title', doc: { u: '/book/set/' } });
    expect(engine.search('zzz')).toEqual([]);
  });
});

describe('the text files', () => {
  const deep = `${'Filler words about nothing in particular. '.repeat(30)}The walrus operator assigns inside an expression.`;
  const localePages = [
    ...pages,
    page('walrus', 'Assignment', [{ text: 'Intro.' }, { id: 'deep', heading: 'Deep', text: `  ${deep}\n` }]),
  ];
  const { index, texts } = buildLocaleIndex(localePages, 'en', pairs);
  const documents = expandDocuments(index);

  it('hold the whole text of every document, one file per page, while the index keeps an opening', () => {
    expect(texts).toHaveLength(index.pages.length);
    expect(texts.map((t) => [t.v, t.first, t.texts.length])).toEqual([
      [2, 0, 3],
      [2, 3, 1],
      [2, 4, 2],
    ]);
    expect(texts[0].texts[0]).toBe('Python dict versus Map. A dict maps keys to values.');
    expect(texts[0].texts[1]).toBe('Use the | operator to merge two dictionaries. Merge merge.');
    const deepDoc = index.docs.findIndex((d) => d[2] === 'deep');
    expect(documents[deepDoc].g).toBe(2);
    expect(texts[2].texts[deepDoc - texts[2].first]).toBe(deep);
    expect(index.docs[deepDoc][3].length).toBeLessThanOrEqual(50);
    expect(JSON.stringify(index)).not.toContain('walrus operator');
  });

  it('are used only for the page they fit', () => {
    expect(textsFor(texts[2], 2, documents)).toEqual(
      new Map([
        [4, 'Intro.'],
        [5, deep],
      ]),
    );
    expect(textsFor(texts[2], 1, documents)).toBeUndefined();
    expect(textsFor({ ...texts[2], first: 3 }, 2, documents)).toBeUndefined();
    expect(textsFor({ ...texts[2], texts: ['Intro.'] }, 2, documents)).toBeUndefined();
    expect(textsFor({ v: 2, first: 3, texts: [1 as unknown as string] }, 1, documents)).toBeUndefined();
  });
});
