/**
 * The names of the exported books: `<slug>-<locale>.pdf` and `.epub`, the slug made of the
 * default locale's title (an ASCII file name: lower case, words joined by "-"), so that every
 * locale's files sort together and the name is the same on every system.
 */

export type ExportFormat = 'pdf' | 'epub';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['pdf', 'epub'];

/** A file-name slug of a title: ASCII letters and digits, words joined by "-" ("book" when nothing is left). */
export function fileNameSlug(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || 'book';
}

/** The exported file of a locale in a format: `python-guide-for-javascript-engineers-zh-cn.epub`. */
export function exportFileName(slug: string, locale: string, format: ExportFormat): string {
  return `${slug}-${locale}.${format}`;
}
