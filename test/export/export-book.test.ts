import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExportBooks, type ExportBook, type ExportEntry } from '../../src/export/node/book.js';
import { exportBook, type ExportResult } from '../../src/export/node/export-book.js';
import { renderEpub } from '../../src/export/node/epub.js';
import { readPdfFacts } from '../../src/export/node/pdf.js';
import { epubStylesheet } from '../../src/export/node/styles.js';

/**
 * The exports of the real book, checked with the tools a reader's would open them with: the PDF
 * with poppler (pdfinfo, pdftotext, pdffonts) and qpdf, the EPUB with Debian's epubcheck. One
 * locale (Chinese, which needs the CJK font) is printed once for the whole file: printing the
 * book takes Chromium a minute or more on this machine's two shared cores.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const configPath = path.join(root, 'book.config.json');
const LOCALE = 'zh-cn';
const EPUBCHECK = '/usr/share/java/epubcheck.jar';

let result: ExportResult;
let book: ExportBook;
let work: string;
let pdfFile: string;

const tool = (command: string, args: string[]) =>
  execFileSync(command, args, { encoding: 'utf8', maxBuffer: 256 << 20 });
/**
 * qpdf's JSON of the PDF's objects, read once for the tests that look into it: on the 700-page
 * book each qpdf --json takes seconds of CPU, and the PDF does not change between tests.
 */
let pdfObjects: Record<string, { value?: Record<string, unknown> }> | undefined;
const objectsOf = () => {
  pdfObjects ??= (
    JSON.parse(tool('qpdf', ['--json=2', '--json-key=qpdf', pdfFile])) as {
      qpdf: [unknown, Record<string, { value?: Record<string, unknown> }>];
    }
  ).qpdf[1];
  return Object.values(pdfObjects).map((o) => o.value);
};
/** Text without white space: pdftotext breaks lines (and Chinese) anywhere. */
const squeeze = (text: string) => text.replace(/\s+/g, '');

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'pybook-export-test-'));
  result = await exportBook({ configPath, formats: ['pdf', 'epub'], locales: [LOCALE] });
  ({
    books: [book],
  } = await loadExportBooks({ configPath, locales: [LOCALE] }));
  pdfFile = path.join(work, 'book.pdf');
  writeFileSync(pdfFile, result.files.find((f) => f.format === 'pdf')!.bytes);
}, 1_800_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the PDF', () => {
  it("is a sound, tagged PDF with the book's metadata and language", () => {
    expect(() => tool('qpdf', ['--check', pdfFile])).not.toThrow();
    const info = tool('pdfinfo', [pdfFile]);
    expect(info).toMatch(/^Tagged:\s+yes$/m);
    expect(info).toContain(`Title:           ${book.title}`);
    expect(info).toContain(`Author:          ${book.author}`);
    expect(info).toMatch(/^Subject:\s+\S/m);
    expect(objectsOf().filter((v) => v?.['/Type'] === '/Catalog')).toEqual([
      expect.objectContaining({ '/Lang': 'u:zh-CN' }),
    ]);
  });

  it('embeds every font, the Chinese one included', () => {
    const fonts = tool('pdffonts', [pdfFile]).split('\n').slice(2).filter(Boolean);
    expect(fonts.length).toBeGreaterThan(0);
    for (const line of fonts) expect(line.split(/\s+/).at(-5), line).toBe('yes');
    // Skia, Chromium's PDF writer, writes a font with CFF outlines, which Noto CJK (the CJK fonts
    // .ci/run installs) has, as Type 3 fonts: the glyphs' outlines in the file, which pdffonts lists
    // unnamed ("[none]"). Their font descriptors name the font they were drawn from.
    const names = objectsOf()
      .filter((v) => v?.['/Type'] === '/FontDescriptor')
      .flatMap((v) => [v!['/FontName'], v!['/FontFamily']].map(String));
    expect(
      [...fonts, ...names].some((name) => /Noto ?Sans ?CJK|Noto ?Serif ?CJK/i.test(name)),
      names.join(', '),
    ).toBe(true);
  });

  it("has the sidebar's tree as its outline: categories, chapters, their h2 sections, and the answers", () => {
    const outline = JSON.parse(tool('qpdf', ['--json=2', '--json-key=outlines', pdfFile])) as {
      outlines: Array<{ title: string; kids: unknown[] }>;
    };
    type Node = { title: string; kids: Node[] };
    const titles = (nodes: Node[]): string[] => nodes.flatMap((n) => [n.title, ...titles(n.kids)]);
    const expected: string[] = [book.strings.exportBook.contents];
    const walk = (entries: ExportEntry[]) => {
      for (const entry of entries) {
        if (entry.type === 'category') {
          expected.push(entry.label);
          walk(entry.items);
        } else {
          expected.push(entry.chapter.title, ...entry.chapter.page.toc.filter((t) => t.depth === 2).map((t) => t.text));
        }
      }
    };
    walk(book.entries);
    expected.push(book.strings.exportBook.answers);
    const found = titles(outline.outlines as Node[]);
    // The answers' entries follow the appendix's title: one per exercise.
    const answers = found.slice(found.indexOf(book.strings.exportBook.answers) + 1);
    expect(found.slice(0, expected.length).map(squeeze)).toEqual(expected.map(squeeze));
    expect(answers.length).toBeGreaterThanOrEqual(40);
    // The tree's shape: a chapter of Part 1 sits under its part and category.
    const part = (outline.outlines as Node[]).find((n) => n.title === '第一部分：Python 基础')!;
    expect(part.kids.map((k) => k.title)).toContain('开发环境');
  });

  it('has every chapter, each on a page of its own, with a sentence of its own text', () => {
    // In the order Chromium wrote the text (-raw): poppler's reading order puts words on lines by
    // their boxes, which for a Type 3 font (Noto CJK, see above) come from its FontBBox, nearly three
    // times the line's height, so a line of Chinese and inline code (DejaVu Sans Mono) comes apart
    // (the pip chapter's "npm install lodash" printed after the rest of its paragraph).
    const facts = tool('pdftotext', ['-raw', pdfFile, '-']).split('\f');
    const text = squeeze(facts.join(''));
    for (const chapter of book.chapters) {
      const first = chapter.page.sections.find((s) => s.text.length > 30)?.text ?? chapter.title;
      expect(text, chapter.slug).toContain(squeeze(first.slice(0, 24)));
    }
  });

  it('links inside the book to pages inside the file, and outside it to the web', async () => {
    const facts = await readPdfFacts(pdfFile);
    const links = objectsOf().filter((v) => v?.['/Subtype'] === '/Link');
    const internal = links.filter((l) => typeof l!['/Dest'] === 'string');
    const external = links.filter((l) => l!['/A']);
    expect(internal.length).toBeGreaterThan(500);
    expect(external.length).toBeGreaterThan(50);
    for (const link of internal) {
      const name = (link!['/Dest'] as string).slice(1);
      const page = facts.destinations.get(decodeURIComponent(name.replace(/#([0-9a-f]{2})/gi, '%$1')));
      expect(page, name).toBeGreaterThanOrEqual(1);
      expect(page!).toBeLessThanOrEqual(facts.pageCount);
    }
    // Each chapter starts on its own page.
    const starts = book.chapters.map((c) => facts.destinations.get(c.slug)!);
    expect(new Set(starts).size).toBe(starts.length);
  });

  it('shows no buttons and no hidden trap, and moves answers to the appendix', () => {
    const text = tool('pdftotext', [pdfFile, '-']);
    for (const control of ['运行', '编辑']) expect(text.split('\n').filter((l) => l.trim() === control)).toEqual([]);
    expect(text).toContain(book.strings.exportBook.hintsAndAnswerInAppendix);
    expect(text).toContain(book.strings.exportBook.backToExercise);
  });
});

describe('the EPUB', () => {
  const epub = () => result.files.find((f) => f.format === 'epub')!.bytes;

  it('starts with the mimetype entry, stored', () => {
    const bytes = epub();
    expect(bytes.readUInt32LE(0)).toBe(0x04034b50);
    expect(bytes.readUInt16LE(8)).toBe(0); // stored
    expect(bytes.readUInt16LE(28)).toBe(0); // no extra field
    expect(bytes.subarray(30, 38).toString()).toBe('mimetype');
    expect(bytes.subarray(38, 58).toString()).toBe('application/epub+zip');
  });

  it('is the same bytes when exported again', async () => {
    expect(Buffer.compare(await renderEpub(book, epubStylesheet()), epub())).toBe(0);
  });

  it("passes Debian's epubcheck with no error and no warning", () => {
    const file = path.join(work, 'book.epub');
    writeFileSync(file, epub());
    const report = tool('java', ['-jar', EPUBCHECK, file]);
    expect(report).toMatch(/0 fatals \/ 0 errors \/ 0 warnings/);
  });
});
