import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import type { ExportBook } from './book.js';
import { pdfDocument } from './pdf-document.js';

const run = promisify(execFile);

/** A program the PDF export needs is missing: the message names the Debian package. */
export class MissingToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingToolError';
  }
}

export const DEFAULT_BROWSER = '/usr/bin/chromium';

/** The browser pybook prints with: `--browser`, else $CHROMIUM_PATH, else Debian's chromium. */
export async function launchBrowser(executable?: string): Promise<Browser> {
  const file = executable ?? process.env.CHROMIUM_PATH ?? DEFAULT_BROWSER;
  if (!existsSync(file))
    throw new MissingToolError(
      `no browser to print the PDF with at ${file}: install Chromium (Debian and Ubuntu: apt-get install chromium), or name another Chromium with --browser <path>`,
    );
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: file,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

async function qpdf(args: string[]): Promise<string> {
  try {
    const { stdout } = await run('qpdf', args, { maxBuffer: 512 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const e = error as Error & { stderr?: string; stdout?: string; code?: number | string };
    if (e.code === 'ENOENT')
      throw new MissingToolError(
        "qpdf is needed to number the PDF's table of contents: install it (Debian and Ubuntu: apt-get install qpdf)",
      );
    // qpdf's exit code 3: warnings only, the file was written.
    if (e.code === 3) return e.stdout ?? '';
    throw new Error(`qpdf ${args[0]} failed: ${e.stderr ?? e.message}`);
  }
}

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
interface QpdfOutlineItem {
  object: string;
  title: string;
  kids: QpdfOutlineItem[];
}
interface QpdfJson {
  pages: Array<{ object: string }>;
  outlines: QpdfOutlineItem[];
  qpdf: [unknown, Record<string, { value?: JsonValue; stream?: { dict: JsonValue } }>];
}

/** What the export reads back from a printed PDF: the page of each named destination, the Info object, the page count. */
export interface PdfFacts {
  pageCount: number;
  /** Named destination (an element's id) -> page number from 1. */
  destinations: Map<string, number>;
  infoObject?: string;
  maxObjectId: number;
  /** The outline's entries in reading order (depth first): their objects, titles and dictionaries. */
  outline: Array<{ object: string; title: string; value: JsonValue }>;
}

export async function readPdfFacts(file: string): Promise<PdfFacts> {
  const json = JSON.parse(
    await qpdf(['--json=2', '--json-key=pages', '--json-key=outlines', '--json-key=qpdf', file]),
  ) as QpdfJson;
  const objects = json.qpdf[1];
  const valueOf = (ref: JsonValue | undefined): JsonValue | undefined => {
    if (typeof ref === 'string' && / R$/.test(ref)) {
      const object = objects[`obj:${ref}`];
      return object?.value ?? object?.stream?.dict;
    }
    return ref;
  };
  const pageNumber = new Map(json.pages.map((page, i) => [page.object, i + 1]));
  const trailer = objects.trailer?.value as Record<string, JsonValue>;
  const catalog = valueOf(trailer['/Root']) as Record<string, JsonValue>;
  const destinations = new Map<string, number>();
  const add = (name: string, dest: JsonValue | undefined) => {
    const resolved = valueOf(dest);
    const array = Array.isArray(resolved)
      ? resolved
      : (valueOf((resolved as Record<string, JsonValue>)?.['/D']) as JsonValue[]);
    const page = Array.isArray(array) ? pageNumber.get(array[0] as string) : undefined;
    if (page !== undefined) destinations.set(decodePdfName(name), page);
  };
  const dests = valueOf(catalog['/Dests']) as Record<string, JsonValue> | undefined;
  for (const [name, dest] of Object.entries(dests ?? {})) add(name, dest);
  // PDF 1.2+ may keep them in a name tree instead.
  const walkNames = (node: Record<string, JsonValue> | undefined) => {
    if (!node) return;
    const names = valueOf(node['/Names']) as JsonValue[] | undefined;
    for (let i = 0; names && i + 1 < names.length; i += 2)
      add(`/${(names[i] as string).replace(/^u:/, '')}`, names[i + 1]);
    for (const kid of (valueOf(node['/Kids']) as JsonValue[] | undefined) ?? [])
      walkNames(valueOf(kid) as Record<string, JsonValue>);
  };
  const nameTree = valueOf(catalog['/Names']) as Record<string, JsonValue> | undefined;
  walkNames(valueOf(nameTree?.['/Dests']) as Record<string, JsonValue> | undefined);
  const maxObjectId = Math.max(
    0,
    ...Object.keys(objects)
      .map((key) => /^obj:(\d+) /.exec(key)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number),
  );
  const outline: PdfFacts['outline'] = [];
  const walkOutline = (items: QpdfOutlineItem[]) => {
    for (const item of items) {
      outline.push({ object: item.object, title: item.title, value: objects[`obj:${item.object}`]?.value ?? null });
      walkOutline(item.kids);
    }
  };
  walkOutline(json.outlines ?? []);
  return {
    pageCount: json.pages.length,
    destinations,
    infoObject: trailer['/Info'] as string | undefined,
    maxObjectId,
    outline,
  };
}

const squeeze = (text: string) => text.replace(/\s+/g, '');

/** Whether `text` is `within` with characters left out (in order). */
function isSubsequence(text: string, within: string): boolean {
  const chars = [...text];
  let at = 0;
  for (const char of within) if (char === chars[at]) at++;
  return at === chars.length;
}

/**
 * The outline entries whose titles Chromium wrote wrong, with the titles they must have (index in
 * `outline` -> title). Skia, Chromium's PDF writer, titles an entry with the text of every glyph run
 * it painted for the heading, including runs that fall outside the page being drawn. A heading at
 * the top of a page is painted on the page before it as well (clipped away there) when its glyphs
 * reach above its line box, as Noto Sans CJK's do at a line height below about 1.5 (its ascent and
 * descent span 1.45 em): the entry then reads the heading's text twice ("目录目录"), or the parts of it
 * in that font twice ("在在__post_init__中校验中校验" for "在 `__post_init__` 中校验"). `headings` is
 * the document's own list of the headings the outline is made of. An entry gets its heading's text
 * only where the two lists pair up (the same length) and its title is that text with more added.
 */
export function repairOutlineTitles(
  outline: ReadonlyArray<{ title: string }>,
  headings: readonly string[],
): Map<number, string> {
  const repairs = new Map<number, string>();
  if (outline.length !== headings.length) return repairs;
  outline.forEach(({ title }, i) => {
    const found = squeeze(title);
    const expected = squeeze(headings[i]);
    if (expected && found !== expected && isSubsequence(expected, found)) repairs.set(i, headings[i]);
  });
  return repairs;
}

/** A PDF name as JSON gives it ("/a#20b") as text ("a b"). */
function decodePdfName(name: string): string {
  const bytes = Buffer.from(
    name.replace(/^\//, '').replace(/#([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
  return bytes.toString('utf8');
}

export interface PdfResult {
  bytes: Buffer;
  pages: number;
  /** How many times Chromium printed the book (the page numbers settle on the second). */
  passes: number;
}

/**
 * Prints one locale's book with Chromium: first a draft (no tags, no outline) with placeholder page
 * numbers, then, with the pages of every chapter and answer read from the draft's named
 * destinations, again, in full; until the numbers no longer move (twice in practice). The document's metadata (title, author, subject,
 * keywords; its language and tags come from Chromium) is written last, by qpdf.
 */
export async function renderPdf(book: ExportBook, css: string, browser: Browser): Promise<PdfResult> {
  const document = pdfDocument(book, css);
  const work = mkdtempSync(path.join(os.tmpdir(), 'pybook-pdf-'));
  const page = await browser.newPage();
  try {
    // Nothing outside the document (its images are data: URLs): a chapter cannot make the printer fetch.
    await page.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
    let pages: Map<string, number> | undefined;
    let previous: PdfFacts | undefined;
    let bytes: Buffer = Buffer.alloc(0);
    let passes = 0;
    const file = path.join(work, 'book.pdf');
    for (;;) {
      passes++;
      await page.setContent(document.html(pages), { waitUntil: 'load' });
      await page.evaluate('document.fonts.ready.then(() => undefined)');
      // The first printing only finds where the pages fall: it leaves out the tags and the outline
      // (the layout is the same without them; the Chinese book printed in 54 s instead of 60 s, paired
      // runs on two cores); every printing that may be kept has both.
      const draft = previous === undefined;
      bytes = await page.pdf({ outline: !draft, tagged: !draft, printBackground: true, preferCSSPageSize: true });
      writeFileSync(file, bytes);
      const facts = await readPdfFacts(file);
      const missing = document.pageTargets.filter((id) => !facts.destinations.has(id));
      if (missing.length) throw new Error(`the printed PDF has no page for ${missing.slice(0, 5).join(', ')}`);
      const settled =
        previous !== undefined &&
        previous.pageCount === facts.pageCount &&
        document.pageTargets.every((id) => previous!.destinations.get(id) === facts.destinations.get(id));
      if (settled || passes === 4) {
        if (!settled) throw new Error('the page numbers of the PDF did not settle after 4 printings');
        const final = path.join(work, 'book-with-metadata.pdf');
        const updates = writeUpdates(work, book, facts, document.outlineHeadings);
        await qpdf([file, '--object-streams=generate', `--update-from-json=${updates}`, final]);
        return { bytes: readFileSync(final), pages: facts.pageCount, passes };
      }
      previous = facts;
      pages = new Map(document.pageTargets.map((id) => [id, facts.destinations.get(id)!]));
    }
  } finally {
    await page.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * qpdf's JSON that replaces the Info dictionary (Chromium writes the title, not the author) and the
 * outline entries whose titles Chromium doubled (`repairOutlineTitles`).
 */
function writeUpdates(work: string, book: ExportBook, facts: PdfFacts, headings: readonly string[]): string {
  const info = {
    '/Title': `u:${book.title}`,
    '/Author': `u:${book.author}`,
    '/Subject': `u:${book.tagline}`,
    '/Keywords': `u:${book.keywords.join(', ')}`,
    '/Creator': 'u:pybook',
    '/Producer': 'u:pybook (Chromium, Skia/PDF, qpdf)',
  };
  const objects: Record<string, unknown> = {};
  if (facts.infoObject) objects[`obj:${facts.infoObject}`] = { value: info };
  for (const [i, title] of repairOutlineTitles(facts.outline, headings)) {
    const { object, value } = facts.outline[i];
    if (value && typeof value === 'object' && !Array.isArray(value))
      objects[`obj:${object}`] = { value: { ...value, '/Title': `u:${title}` } };
  }
  const file = path.join(work, 'info.json');
  writeFileSync(
    file,
    JSON.stringify({
      qpdf: [
        {
          jsonversion: 2,
          pushedinheritedpageresources: false,
          calledgetallpages: false,
          maxobjectid: facts.maxObjectId,
        },
        objects,
      ],
    }),
  );
  return file;
}
