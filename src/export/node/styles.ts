import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../core/package-root.js';

const read = (relative: string) => readFileSync(path.join(PACKAGE_ROOT, relative), 'utf8');

/** The stylesheet the PDF is printed with: the site's, its print rules, and the book's page layout. */
export function pdfStylesheet(): string {
  return [read('src/theme/styles.css'), read('src/theme/print.css'), read('src/export/pdf.css')].join('\n');
}

/** The EPUB's stylesheet: the code's colours and the few rules its pages need (src/export/epub.css). */
export function epubStylesheet(): string {
  return read('src/export/epub.css');
}
