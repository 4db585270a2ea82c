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
interface QpdfJson {
  pages: Array<{ object: string }>;
  qpdf: [unknown, Record<string, { value?: JsonValue; stream?: { dict: JsonValue } }>];
}

/** What the export reads back from a printed PDF: the page of each named destination, the Info object, the page count. */
export interface PdfFacts {
  pageCount: number;
  /** Named destination (an element's id) -> page number from 1. */
  destinations: Map<string, number>;
  infoObject?: string;
  maxObjectId: number;
}

export async function readPdfFacts(file: string): Promise<PdfFacts> {
  const json = JSON.parse(await qpdf(['--json=2', '--json-key=pages', '--json-key=qpdf', file])) as QpdfJson;
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
  return {
    pageCount: json.pages.length,
    destinations,
    infoObject: trailer['/Info'] as string | undefined,
    maxObjectId,
  };
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
 * Prints one locale's book with Chromium: first with placeholder page numbers, then, with the
 * pages of every chapter and answer read from the first PDF's named destinations, again; until the
 * numbers no longer move (twice in practice). The document's metadata (title, author, subject,
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
      bytes = await page.pdf({ outline: true, tagged: true, printBackground: true, preferCSSPageSize: true });
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
        await qpdf([file, '--object-streams=generate', `--update-from-json=${writeInfo(work, book, facts)}`, final]);
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

/** qpdf's JSON that replaces the Info dictionary: Chromium writes the title, not the author. */
function writeInfo(work: string, book: ExportBook, facts: PdfFacts): string {
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
