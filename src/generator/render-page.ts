import { fileURLToPath } from 'node:url';
import type { Root as HastRoot } from 'hast';
import { createElement } from 'react';
import { HomeSections } from '../theme/content/HomeSections.js';
import type { HomeData } from '../shared/model/home.js';
import { renderContentHtml, renderElementHtml } from '../theme/content/index.js';
import { escapeHtml } from '../shared/escape-html.js';
import { HEAD_SCRIPT } from '../shared/head-script.js';
import { FOOTER_ID } from '../shared/page-landmarks.js';
import { pagePolicy } from './page-policy.js';
import type { ShellRenderer } from './shell-renderer.js';
import { sidebarMarkup } from './sidebar-markup.js';
import type { PageModel, SiteData } from '../shared/model/page.js';
import { toClientPage } from '../shared/model/page.js';
import type { PageAssets } from '../bundler/bundle-client.js';
import { PLACEHOLDER, type PagePlaceholder } from './page-template.js';
import { offlineHeadTags, type OfflinePageHead } from '../offline/node/offline-build.js';

/** The HTML shell every page is rendered into (pybook's own, beside src/ and dist/). */
export const TEMPLATE_FILE = fileURLToPath(new URL('../../templates/page.html', import.meta.url));

/**
 * A chapter's hast rendered through the chapter components (src/theme/content) into static HTML;
 * `runnable` holds the examples that may offer Run (the browser-check record).
 */
export function renderContent(hast: HastRoot, site: SiteData, runnable: ReadonlySet<string> = new Set()): string {
  return renderContentHtml(hast, { strings: site.strings, runnable });
}

/** The home page's sections below the hero, as static HTML (see HomeSections.tsx). */
export function renderHomeSections(home: HomeData, site: SiteData): string {
  return renderElementHtml(createElement(HomeSections, { home }), { strings: site.strings, runnable: new Set() });
}

/** An inline script with data attributes; the page's policy allows it by its hash. */
export interface BodyScript {
  code: string;
  /** Its element's data-* attributes (the script reads them from document.currentScript). */
  data: Record<string, string>;
}

/** The script element, and its text as the page's policy hashes it ("</" escaped so that no text closes it early). */
function bodyScriptElement(script: BodyScript): { html: string; text: string } {
  const text = script.code.replace(/<\//g, '<\\/');
  const attributes = Object.entries(script.data)
    .map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`)
    .join('');
  return { html: `<script${attributes}>${text}</script>`, text };
}

export interface RenderOptions {
  /** The site's origin, for canonical and alternate URLs. */
  siteUrl: string;
  /** URL of the locale's site data file (SiteData as JSON), which the client fetches to hydrate. */
  siteDataUrl: string;
  pybookVersion: string;
  assets: PageAssets;
  /** The HTML shell (TEMPLATE_FILE's text), read and checked once per build (loadPageTemplate) so that watch mode sees edits to it. */
  template: string;
  /** Set by watch mode: a script at the end of the body (the live-reload client). */
  bodyScript?: BodyScript;
  /** The page shell's server renderer (see shell-renderer.ts). */
  shell: ShellRenderer;
  /** Reading offline (src/offline/): the build's id, the locale's web app manifest and the service worker. */
  offline?: OfflinePageHead;
}

const LINE_SEPARATORS = /[\u2028\u2029]/;

/**
 * JSON inside <script>: escape "<" so no text from a chapter can close the script element,
 * and the line separators that JSON allows but JavaScript once did not. A page's content HTML
 * has thousands of "<": one native replaceAll, not a callback per match (some 40 ms a build).
 */
export function jsonForScript(value: unknown): string {
  const json = JSON.stringify(value).replaceAll('<', '\\u003c');
  return LINE_SEPARATORS.test(json) ? json.replaceAll('\u2028', '\\u2028').replaceAll('\u2029', '\\u2029') : json;
}

function headTags(site: SiteData, page: PageModel, options: RenderOptions): string {
  const tags: string[] = [];
  const absolute = (route: string) => options.siteUrl + route;
  tags.push(`<title>${escapeHtml(page.documentTitle)}</title>`);
  tags.push(`<meta name="description" content="${escapeHtml(page.description)}">`);
  if (page.keywords.length) tags.push(`<meta name="keywords" content="${escapeHtml(page.keywords.join(', '))}">`);
  tags.push(`<meta name="author" content="${escapeHtml(site.author)}">`);
  if (page.unlisted || page.kind === 'notFound') tags.push('<meta name="robots" content="noindex, nofollow">');
  tags.push(`<meta property="og:title" content="${escapeHtml(page.documentTitle)}">`);
  tags.push(`<meta property="og:description" content="${escapeHtml(page.description)}">`);
  tags.push(`<meta property="og:locale" content="${escapeHtml(site.locale.htmlLang.replace('-', '_'))}">`);
  tags.push('<meta name="theme-color" content="#2f64a8" media="(prefers-color-scheme: light)">');
  tags.push('<meta name="theme-color" content="#10151d" media="(prefers-color-scheme: dark)">');
  if (page.kind !== 'notFound') {
    tags.push(`<link rel="canonical" href="${escapeHtml(absolute(page.route))}">`);
    tags.push(`<meta property="og:url" content="${escapeHtml(absolute(page.route))}">`);
    for (const alt of page.alternates)
      tags.push(
        `<link rel="alternate" hreflang="${escapeHtml(alt.htmlLang)}" href="${escapeHtml(absolute(alt.href))}">`,
      );
    const fallback = page.alternates.find((a) => a.locale === site.locales[0].code);
    if (fallback)
      tags.push(`<link rel="alternate" hreflang="x-default" href="${escapeHtml(absolute(fallback.href))}">`);
    // The chapter as clean Markdown (src/llms/), for tools that read the page.
    if (page.markdownUrl)
      tags.push(`<link rel="alternate" type="text/markdown" href="${escapeHtml(absolute(page.markdownUrl))}">`);
  }
  tags.push(`<link rel="icon" href="${site.basePath}img/logo.svg" type="image/svg+xml">`);
  if (options.offline) tags.push(...offlineHeadTags(options.offline));
  tags.push(`<link rel="stylesheet" href="${options.assets.stylesheet}">`);
  // No frame until <main> is parsed to its end (the footer follows it): a browser that parses a long
  // page in slices (a slow CPU, a slow network) would otherwise paint a comparison's first column or
  // half the navbar, and move them as the rest arrives (layout shift). Whatever the viewport, the
  // first screen is <main> or before it. Browsers without rel=expect paint as before.
  tags.push(`<link rel="expect" href="#${FOOTER_ID}" blocking="render">`);
  // Print rules (src/theme/print.css): fetched at the lowest priority, never blocking the first paint.
  if (options.assets.printStylesheet)
    tags.push(`<link rel="stylesheet" href="${options.assets.printStylesheet}" media="print">`);
  // Only the first-load script (src/client/boot.ts) and what it imports: the app and the site data
  // are fetched after the page is shown.
  tags.push(`<link rel="modulepreload" href="${options.assets.entry}">`);
  for (const url of options.assets.preload) tags.push(`<link rel="modulepreload" href="${url}">`);
  return tags.join('\n');
}

/**
 * The complete HTML document of a page: the server-rendered app, and the data the client
 * hydrates with (the page's own JSON inline, the locale's site data by URL).
 */
export function renderDocument(
  site: SiteData,
  page: PageModel,
  pageJson: string,
  html: string,
  options: RenderOptions,
): string {
  const clientPage = toClientPage(page);
  const app = options.shell.renderShell(site, clientPage, html, (route) =>
    sidebarMarkup(site.sidebar, route, options.shell),
  );
  const bodyScript = options.bodyScript && bodyScriptElement(options.bodyScript);
  const values: Record<PagePlaceholder, string> = {
    htmlLang: escapeHtml(site.locale.htmlLang),
    dir: site.locale.direction,
    htmlAttributes: site.announcement ? ` data-announcement="${escapeHtml(site.announcement.id)}"` : '',
    pybookVersion: options.pybookVersion,
    contentSecurityPolicy: pagePolicy(
      bodyScript ? [HEAD_SCRIPT, bodyScript.text] : [HEAD_SCRIPT],
      options.offline?.worker,
    ),
    headScript: HEAD_SCRIPT,
    head: headTags(site, page, options),
    app,
    // The content HTML is already in the page: the client reads it back from the DOM.
    data: `{"siteDataUrl":${jsonForScript(options.siteDataUrl)},"page":${pageJson}}`,
    scripts: `<script type="module" src="${options.assets.entry}"></script>${bodyScript?.html ?? ''}`,
  };
  // loadPageTemplate has checked that every placeholder is one of these.
  return options.template.replace(PLACEHOLDER, (_, key: PagePlaceholder) => values[key]);
}
