import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Element, ElementContent } from 'hast';
import { format } from '../../shared/i18n/plural.js';
import { answerEntries, answerLinkParagraph, type AnswerPlaces } from './answers.js';
import { findStaticFile, type BookFile, type ExportBook, type ExportEntry } from './book.js';
import { h } from './hast.js';
import { prepareChapter, type ExportTargets } from './prepare-chapter.js';
import { xhtmlDocument, xmlText } from './xhtml.js';
import { zipBytes, type ZipEntry } from './zip.js';

/**
 * The book of one locale as an EPUB 3: one XHTML document per chapter, the navigation document
 * made of the sidebar's tree, a cover page and the cover image, the chapters' images, the code
 * highlighted by a stylesheet (the site's token colours), the answers appendix, the language set.
 * The zip is the same bytes for the same book: fixed entry order, one fixed time (SOURCE_DATE_EPOCH
 * when set), the mimetype entry first and stored (zip.ts).
 */

const ROOT = 'EPUB';
const fileOf = (slug: string) => `${slug}.xhtml`;
/** A manifest id (an XML name) for a file name. */
const itemId = (prefix: string, name: string) => `${prefix}-${name.replace(/[^A-Za-z0-9_.-]/g, '_')}`;

/** The time the EPUB says it was modified, and its zip entries' time. */
export function exportTime(): Date {
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  // Zip's DOS times start in 1980; without SOURCE_DATE_EPOCH one fixed day, so that the bytes stay the same.
  return Number.isInteger(epoch) && epoch >= 315532800 ? new Date(epoch * 1000) : new Date(Date.UTC(2000, 0, 1));
}

export async function renderEpub(book: ExportBook, stylesheet: string): Promise<Buffer> {
  const { strings, locale } = book;
  const lang = locale.htmlLang;
  const chaptersBySlug = new Map(book.chapters.map((c) => [c.slug, c]));
  const images = new Map<string, BookFile>();
  const imageName = (file: BookFile) => `images/${file.sitePath.replace(/^img\//, '')}`;
  const places: AnswerPlaces = {
    refId: (e) => `answer-${e.number}`,
    entryId: (e) => `${e.slug}-${e.number}`,
    refHref: (e) => `${fileOf(e.slug)}#answer-${e.number}`,
    entryHref: (e) => `answers.xhtml#${e.slug}-${e.number}`,
  };
  const targets: ExportTargets = {
    id: (_slug, id) => id,
    link: (_from, target) => {
      if (target.kind === 'external') return target.url;
      if (target.kind === 'static') return book.siteAddress + target.sitePath;
      if (target.kind === 'home' || (target.kind === 'chapter' && target.slug === '')) return 'nav.xhtml';
      const to = chaptersBySlug.get(target.slug);
      if (!to) return `${book.siteAddress}${locale.urlPrefix}${target.slug}/`;
      const hash = target.hash && to.ids.has(target.hash) ? `#${target.hash}` : '';
      // With the file's name even within the chapter: an answer's link is read in the appendix.
      return `${fileOf(target.slug)}${hash}`;
    },
    image: (sitePath) => {
      const file = findStaticFile(book.staticDirs, sitePath);
      if (!file) return undefined;
      images.set(imageName(file), file);
      return imageName(file);
    },
  };

  const documents: Array<{ name: string; id: string; xhtml: string; properties?: string }> = [];
  const answers: Element[] = [];
  for (const chapter of book.chapters) {
    const prepared = prepareChapter(chapter.slug, chapter.html, book.config.basePath, locale.urlPrefix, targets, (e) =>
      answerLinkParagraph(e, strings, places),
    );
    const body: ElementContent[] = [
      h('section', { className: ['book-chapter'], dataEpubType: 'chapter', ariaLabelledBy: ['chapter-title'] }, [
        h('h1', { id: 'chapter-title' }, [chapter.title]),
        h('div', { className: ['markdown'] }, prepared.content.children as ElementContent[]),
      ]),
    ];
    answers.push(...answerEntries(chapter, prepared.answers, strings, places));
    documents.push({
      name: fileOf(chapter.slug),
      id: itemId('c', chapter.slug),
      xhtml: epubTypes(
        xhtmlDocument({
          lang,
          dir: locale.direction,
          title: chapter.title,
          stylesheet: 'style.css',
          body,
          bodyClass: 'book-export',
        }),
      ),
    });
  }
  if (answers.length)
    documents.push({
      name: 'answers.xhtml',
      id: 'answers',
      xhtml: epubTypes(
        xhtmlDocument({
          lang,
          dir: locale.direction,
          title: strings.exportBook.answers,
          stylesheet: 'style.css',
          bodyClass: 'book-export',
          body: [
            h('section', { className: ['book-answers'], dataEpubType: 'appendix', ariaLabelledBy: ['answers-title'] }, [
              h('h1', { id: 'answers-title' }, [strings.exportBook.answers]),
              h('div', { className: ['markdown'] }, answers),
            ]),
          ],
        }),
      ),
    });

  const cover = book.cover;
  if (cover) images.set(imageName(cover), cover);
  const coverPage = xhtmlDocument({
    lang,
    dir: locale.direction,
    title: book.title,
    stylesheet: 'style.css',
    bodyClass: 'book-cover',
    body: [
      h('section', { dataEpubType: 'cover' }, [
        ...(cover ? [h('img', { src: imageName(cover), alt: book.title })] : []),
        h('p', { className: ['book-cover-title'] }, [book.title]),
        h('p', { className: ['book-cover-tagline'] }, [book.tagline]),
        h('p', { className: ['book-cover-meta'] }, [format(strings.exportBook.version, { version: book.version })]),
        h('p', { className: ['book-cover-meta'] }, [book.author]),
      ]),
    ],
  });

  const nav = navDocument(book, answers.length > 0);
  const time = exportTime();
  const opf = packageDocument(book, documents, images, time, cover ? imageName(cover) : undefined);
  const entries: ZipEntry[] = [
    { name: 'mimetype', data: 'application/epub+zip', store: true },
    { name: 'META-INF/container.xml', data: CONTAINER },
    { name: `${ROOT}/package.opf`, data: opf },
    { name: `${ROOT}/cover.xhtml`, data: epubTypes(coverPage) },
    { name: `${ROOT}/nav.xhtml`, data: nav },
    ...documents.map((d) => ({ name: `${ROOT}/${d.name}`, data: d.xhtml })),
    { name: `${ROOT}/style.css`, data: stylesheet },
    ...[...images.keys()]
      .sort()
      .map((name) => ({ name: `${ROOT}/${name}`, data: readFileSync(images.get(name)!.file) })),
  ];
  return zipBytes(entries, time);
}

/** hast has no namespaced attributes: `data-epub-type` stands for `epub:type` until the XML is written. */
const epubTypes = (xhtml: string) => xhtml.replace(/ data-epub-type="/g, ' epub:type="');

const CONTAINER = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="${ROOT}/package.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
`;

/** The navigation document: the sidebar's tree (categories as labels, chapters as links), then the answers. */
function navDocument(book: ExportBook, hasAnswers: boolean): string {
  const list = (entries: ExportEntry[]): Element =>
    h(
      'ol',
      {},
      entries.map((entry) =>
        entry.type === 'chapter'
          ? h('li', {}, [h('a', { href: fileOf(entry.chapter.slug) }, [entry.chapter.title])])
          : h('li', {}, [h('span', {}, [entry.label]), list(entry.items)]),
      ),
    );
  const toc = list(book.entries);
  if (hasAnswers)
    toc.children.push(h('li', {}, [h('a', { href: 'answers.xhtml' }, [book.strings.exportBook.answers])]));
  const landmarks = h('ol', {}, [
    h('li', {}, [h('a', { dataEpubType: 'cover', href: 'cover.xhtml' }, [book.title])]),
    h('li', {}, [h('a', { dataEpubType: 'toc', href: 'nav.xhtml' }, [book.strings.exportBook.contents])]),
    ...(book.chapters[0]
      ? [
          h('li', {}, [
            h('a', { dataEpubType: 'bodymatter', href: fileOf(book.chapters[0].slug) }, [book.chapters[0].title]),
          ]),
        ]
      : []),
  ]);
  return epubTypes(
    xhtmlDocument({
      lang: book.locale.htmlLang,
      dir: book.locale.direction,
      title: book.strings.exportBook.contents,
      stylesheet: 'style.css',
      bodyClass: 'book-export',
      body: [
        h('nav', { dataEpubType: 'toc', id: 'toc' }, [h('h1', {}, [book.strings.exportBook.contents]), toc]),
        h('nav', { dataEpubType: 'landmarks', id: 'landmarks', hidden: true }, [h('h2', {}, ['Landmarks']), landmarks]),
      ],
    }),
  );
}

function packageDocument(
  book: ExportBook,
  documents: Array<{ name: string; id: string; xhtml: string }>,
  images: Map<string, BookFile>,
  time: Date,
  coverImage: string | undefined,
): string {
  const identifier = createHash('sha256').update(`${book.siteAddress}\0${book.locale.code}`).digest('hex');
  const uuid = `${identifier.slice(0, 8)}-${identifier.slice(8, 12)}-5${identifier.slice(13, 16)}-a${identifier.slice(17, 20)}-${identifier.slice(20, 32)}`;
  const modified = time.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const manifest = [
    `<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>`,
    `<item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>`,
    `<item id="css" href="style.css" media-type="text/css"/>`,
    ...documents.map(
      (d) =>
        `<item id="${xmlText(d.id)}" href="${xmlText(d.name)}" media-type="application/xhtml+xml"${d.xhtml.includes('<svg') ? ' properties="svg"' : ''}/>`,
    ),
    ...[...images.keys()]
      .sort()
      .map(
        (name) =>
          `<item id="${xmlText(itemId('img', name))}" href="${xmlText(name)}" media-type="${images.get(name)!.mediaType}"${name === coverImage ? ' properties="cover-image"' : ''}/>`,
      ),
  ];
  const spine = [
    '<itemref idref="cover"/>',
    '<itemref idref="nav"/>',
    ...documents.map((d) => `<itemref idref="${xmlText(d.id)}"/>`),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="${xmlText(book.locale.htmlLang)}" dir="${book.locale.direction}">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="book-id">urn:uuid:${uuid}</dc:identifier>
    <dc:title>${xmlText(book.title)}</dc:title>
    <dc:language>${xmlText(book.locale.htmlLang)}</dc:language>
    <dc:creator>${xmlText(book.author)}</dc:creator>
    <dc:description>${xmlText(book.tagline)}</dc:description>
${book.keywords.map((k) => `    <dc:subject>${xmlText(k)}</dc:subject>`).join('\n')}
    <dc:source>${xmlText(book.siteAddress + book.locale.urlPrefix)}</dc:source>
    <meta property="dcterms:modified">${modified}</meta>
    <meta property="schema:accessMode">textual</meta>
    <meta property="schema:accessModeSufficient">textual</meta>
    <meta property="schema:accessibilityFeature">structuralNavigation</meta>
    <meta property="schema:accessibilityFeature">tableOfContents</meta>
    <meta property="schema:accessibilityHazard">none</meta>
    <meta property="schema:accessibilitySummary">${xmlText(book.tagline)}</meta>
${coverImage ? `    <meta name="cover" content="${xmlText(itemId('img', coverImage))}"/>\n` : ''}  </metadata>
  <manifest>
${manifest.map((line) => `    ${line}`).join('\n')}
  </manifest>
  <spine>
${spine.map((line) => `    ${line}`).join('\n')}
  </spine>
</package>
`;
}
