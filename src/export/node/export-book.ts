import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { DiskCache } from '../../cache/disk-cache.js';
import { loadConfig } from '../../config/load-config.js';
import type { Warning } from '../../shared/model/chapter.js';
import { copyOf, type FileContents } from '../../output/copied-file.js';
import { assertSafeOutputDir, protectedFoldersOf } from '../../output/guard.js';
import { foreignFilesIn } from '../../output/manifest.js';
import { recoverOutputDir, writeSiteAtomically } from '../../output/write-site.js';
import path from 'node:path';
import { exportFileName, type ExportFormat } from '../shared/file-names.js';
import { loadExportBooks } from './book.js';
import { renderEpub } from './epub.js';
import { launchBrowser, MissingToolError, renderPdf } from './pdf.js';
import { epubStylesheet, pdfStylesheet } from './styles.js';

export interface ExportOptions {
  configPath: string;
  formats: readonly ExportFormat[];
  /** Locale codes (default: every locale of the book). */
  locales?: readonly string[];
  /** The Chromium that prints the PDF (default: $CHROMIUM_PATH, else /usr/bin/chromium). */
  browser?: string;
  cache?: boolean;
  /** One line per step. */
  onStep?: (line: string) => void;
}

export interface ExportedFile {
  name: string;
  locale: string;
  format: ExportFormat;
  bytes: Buffer;
  ms: number;
  /** The PDF's page count. */
  pages?: number;
}

export interface ExportResult {
  files: ExportedFile[];
  warnings: Warning[];
  slug: string;
}

const run = promisify(execFile);

/** Fails at once, naming what to install, when a program the PDF needs is missing. */
async function assertQpdf(): Promise<void> {
  try {
    await run('qpdf', ['--version']);
  } catch {
    throw new MissingToolError(
      "qpdf is needed to number the PDF's table of contents and write its metadata: install it (Debian and Ubuntu: apt-get install qpdf)",
    );
  }
}

export const formatBytes = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/**
 * The book as files (in memory): per locale, the PDF printed by Chromium and the EPUB. Nothing is
 * written: `pybook export` writes them into its folder, `pybook build --with-exports` into the site.
 */
export async function exportBook(options: ExportOptions): Promise<ExportResult> {
  const step = options.onStep ?? (() => {});
  const wantsPdf = options.formats.includes('pdf');
  // A missing browser or qpdf is said before anything is compiled.
  const browser = wantsPdf ? await launchBrowser(options.browser) : undefined;
  try {
    if (wantsPdf) await assertQpdf();
    step('compiling the book');
    const { books, warnings, slug } = await loadExportBooks({
      configPath: options.configPath,
      locales: options.locales,
      cache: options.cache,
    });
    const files: ExportedFile[] = [];
    for (const book of books) {
      const locale = book.locale.code;
      if (browser) {
        const started = performance.now();
        step(`${locale}: printing the PDF (${book.chapters.length} chapters)`);
        const pdf = await renderPdf(book, pdfStylesheet(), browser);
        const ms = Math.round(performance.now() - started);
        files.push({
          name: exportFileName(slug, locale, 'pdf'),
          locale,
          format: 'pdf',
          bytes: pdf.bytes,
          ms,
          pages: pdf.pages,
        });
        step(
          `${locale}: PDF of ${pdf.pages} pages, ${formatBytes(pdf.bytes.length)}, in ${(ms / 1000).toFixed(1)} s (${pdf.passes} printings)`,
        );
      }
      if (options.formats.includes('epub')) {
        const started = performance.now();
        step(`${locale}: writing the EPUB`);
        const bytes = await renderEpub(book, epubStylesheet());
        const ms = Math.round(performance.now() - started);
        files.push({ name: exportFileName(slug, locale, 'epub'), locale, format: 'epub', bytes, ms });
        step(`${locale}: EPUB of ${formatBytes(bytes.length)} in ${(ms / 1000).toFixed(1)} s`);
      }
    }
    return { files, warnings, slug };
  } finally {
    await browser?.close();
  }
}

/**
 * `pybook export`: the files into `outDir`, with the output folder's safety of `pybook build`
 * (src/output): the folder is refused unless everything in it is pybook's (its manifest proves
 * it), and is replaced whole, atomically. The exports of an earlier run that this one does not
 * make again (another format or locale) are carried over, so `--format epub` keeps the PDFs.
 */
export async function exportToFolder(options: ExportOptions & { outDir: string }): Promise<ExportResult> {
  const config = loadConfig(options.configPath);
  const protect = protectedFoldersOf(config);
  const stamps = DiskCache.forBook(config.rootDir, options.cache !== false).stampStore();
  // A refused folder costs nothing: said before the book is compiled or printed.
  assertSafeOutputDir(options.outDir, protect, stamps?.load(options.outDir));
  recoverOutputDir(options.outDir);
  const result = await exportBook(options);
  const files = new Map<string, FileContents>(result.files.map((f) => [f.name, f.bytes]));
  // Earlier exports this run did not redo stay, when the manifest proves them pybook's.
  assertSafeOutputDir(options.outDir, protect, stamps?.load(options.outDir));
  try {
    for (const name of foreignFilesIn(path.resolve(options.outDir), undefined, stamps?.load(options.outDir)).proven)
      if (!files.has(name) && /\.(pdf|epub)$/.test(name)) files.set(name, copyOf(path.join(options.outDir, name)));
  } catch {
    // No folder yet.
  }
  writeSiteAtomically(options.outDir, files, [], { protect, stamps });
  return result;
}
