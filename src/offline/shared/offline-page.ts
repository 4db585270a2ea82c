import { escapeHtml } from '../../shared/escape-html.js';
import type { OfflinePageStrings } from './offline-data.js';

export interface OfflinePageInput {
  strings: OfflinePageStrings;
  htmlLang: string;
  /** The site's stylesheet (stored with the client). */
  stylesheet: string;
  /** The locale's home page, when it is stored. */
  home?: string;
  /** The locale's stored pages, in the book's order. */
  pages: Array<{ title: string; href: string }>;
  /** The book's other languages whose home page is stored: where a reader can go instead. */
  others?: Array<{ label: string; htmlLang: string; href: string }>;
}

/**
 * The page the service worker shows for a page of the book that is neither reachable nor stored:
 * what happened, and links to what this device holds in the same language. Static markup in the
 * site's colours (its stylesheet), no script; the worker sends it with a CSP that allows nothing else.
 */
export function offlinePageHtml({ strings, htmlLang, stylesheet, home, pages, others = [] }: OfflinePageInput): string {
  const elsewhere = others.length
    ? `\n<h2>${escapeHtml(strings.otherLanguages)}</h2>\n<ul>\n${others
        .map(
          (other) =>
            `<li><a href="${escapeHtml(other.href)}" lang="${escapeHtml(other.htmlLang)}" hreflang="${escapeHtml(other.htmlLang)}">${escapeHtml(other.label)}</a></li>`,
        )
        .join('\n')}\n</ul>`
    : '';
  const list = pages.length
    ? `<h2>${escapeHtml(strings.savedPages)}</h2>\n<ul class="offline-pages">\n${pages
        .map((page) => `<li><a href="${escapeHtml(page.href)}">${escapeHtml(page.title)}</a></li>`)
        .join('\n')}\n</ul>`
    : `<p>${escapeHtml(strings.noSavedPages)}</p>`;
  return `<!doctype html>
<html lang="${escapeHtml(htmlLang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${escapeHtml(strings.title)}</title>
<link rel="stylesheet" href="${escapeHtml(stylesheet)}">
<style>:root{color-scheme:light dark}.offline-page{max-width:40rem;margin:0 auto;padding:3rem 1.25rem}.offline-pages{columns:2 16rem;padding-left:1.2rem}</style>
</head>
<body>
<main class="offline-page" id="main">
<h1>${escapeHtml(strings.title)}</h1>
<p>${escapeHtml(strings.text)}</p>
${home ? `<p><a class="button button-primary" href="${escapeHtml(home)}">${escapeHtml(strings.home)}</a></p>\n` : ''}${list}${elsewhere}
</main>
</body>
</html>
`;
}
