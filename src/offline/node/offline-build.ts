/**
 * The build's side of the offline feature: the web app manifest of each locale, the build's id
 * (every page carries it), and the service worker script with the build's own list of files
 * (OfflineManifest). The generator calls it at three points (src/generator/build.ts):
 * `siteData` goes into each locale's site data, `pageHead` into every page's render options, and
 * `finish` adds the manifests and the worker once the pages are known.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { BookModel, LocaleInfo } from '../../shared/model/book.js';
import type { BookConfig } from '../../shared/model/config.js';
import type { PageModel, SiteData } from '../../shared/model/page.js';
import { bytesOf, CopiedFile, sizeOf, type FileContents } from '../../output/copied-file.js';
import { listStaticFiles } from '../../output/static-files.js';
import type { SiteFiles } from '../../output/write-site.js';
import type { DiskCache } from '../../cache/disk-cache.js';
import type { ClientBundle } from '../../bundler/bundle-client.js';
import type { RunnerAssets } from '../../runner/build/site-assets.js';
import { textRequestUrl, indexRequestUrl } from '../../search/shared/index-url.js';
import { textFileName } from '../../search/shared/index-format.js';
import { stringsFor } from '../../shared/i18n/index.js';
import {
  APP_GROUP,
  BUILD_META,
  RUNTIME_GROUP,
  WORKER_FILE,
  cacheNamesOf,
  type OfflineFile,
  type OfflineManifest,
  type OfflineSiteData,
} from '../shared/offline-data.js';
import { workerScript } from './worker-script.js';
import { webManifest, webManifestFile } from './web-manifest.js';

/** What a page's head gets (render-page.ts): its build's id and its locale's web app manifest. */
export interface OfflinePageHead {
  build: string;
  manifest: string;
  /** The worker's URL: the page's CSP allows it, and nothing else, as a worker. */
  worker: string;
}

/** A page's head tags: its build's id (the worker stores only this build's pages) and its locale's manifest. */
export function offlineHeadTags(head: OfflinePageHead): string[] {
  return [`<meta name="${BUILD_META}" content="${head.build}">`, `<link rel="manifest" href="${head.manifest}">`];
}

/**
 * The `sw.js` of a build with the feature turned off. No page registers it, links a manifest or
 * allows a worker; it is there for the browsers that kept the worker of an earlier build of the
 * book: their next update check (the browser makes one on a visit) gets this script instead of a
 * 404, which would leave the old worker serving its stored pages for ever. As it installs, it
 * deletes the book's caches (those of its scope, see cacheNamesOf) and unregisters the
 * registration (no page loaded after that is controlled; the pages come from the network again;
 * not awaited: the unregistering waits for the install to end).
 * It does so while installing, not once active: Chromium activates a new worker only when the old
 * one has no request in flight, which can take minutes. It handles no request.
 */
export function retiringWorkerScript(basePath: string): string {
  const prefix = JSON.stringify(cacheNamesOf(basePath).prefix);
  return `// pybook: reading offline is turned off for this book; this removes the worker an earlier build installed.
self.addEventListener('install',function(e){self.skipWaiting();e.waitUntil(caches.keys().then(function(ns){return Promise.all(ns.filter(function(n){return n.indexOf(${prefix})===0}).map(function(n){return caches.delete(n)}))}).then(function(){self.registration.unregister()}))});
`;
}

/** Files a server compresses as it sends them, and the share of their size that then travels. */
const TEXT_FILE = /\.(html|js|mjs|json|css|svg|webmanifest)(\?|$)|\/(\?|$)/;
const TEXT_ON_THE_WIRE = 0.25;

const sha1 = (bytes: Uint8Array | string) => createHash('sha1').update(bytes).digest('hex');
/** The part of a SHA-1 a revision keeps: plenty to tell one build's bytes from another's. */
const REVISION_LENGTH = 16;

/** The SHA-1 of a file's bytes, kept per file object (Pyodide's files are the same objects build after build). */
const revisions = new WeakMap<object, string>();
function revisionOf(contents: FileContents): string {
  if (typeof contents === 'string') return sha1(contents).slice(0, REVISION_LENGTH);
  const known = revisions.get(contents);
  if (known) return known;
  const revision = (contents instanceof CopiedFile && contents.sha1 ? contents.sha1 : sha1(bytesOf(contents))).slice(
    0,
    REVISION_LENGTH,
  );
  revisions.set(contents, revision);
  return revision;
}

/** What the feature takes from a build, before its pages are rendered. */
export interface OfflineContext {
  config: BookConfig;
  book: BookModel;
  /** Each locale's site data (the feature adds its part; the build fills in the page modules later). */
  sites: Record<string, SiteData>;
  staticDirs: string[];
  /** The client bundle and the runner's files. */
  client: ClientBundle;
  runner: RunnerAssets;
  disk?: DiskCache;
  /** Watch mode: the feature is off there (its pages change under the reader). */
  dev: boolean;
  pybookVersion: string;
}

/**
 * The offline feature of one build, or undefined when it is off: turned off in the config, or
 * watch mode, where a worker would show pages the next save has changed. When on, each locale's
 * site data gets the worker's place.
 */
export function offlineBuild(context: OfflineContext): OfflineBuild | undefined {
  if (!context.config.offline.enabled || context.dev) return undefined;
  const offline = new OfflineBuild(context);
  for (const locale of context.book.locales) context.sites[locale.code].offline = offline.siteData;
  return offline;
}

export class OfflineBuild {
  readonly siteData: OfflineSiteData;
  private build?: string;

  constructor(private readonly context: OfflineContext) {
    this.siteData = { worker: context.config.basePath + WORKER_FILE };
  }

  /**
   * Fixes the build's id, before any page is rendered: a hash of everything a page is made from
   * but the page itself (the site data, the page modules, which hold each page's content, the
   * client's and the runner's files, named by their content, the static files and the template),
   * so two builds that differ anywhere a reader could see have different ids.
   */
  prepare(routes: Record<string, Record<string, string>>, template: string): void {
    const { config, sites, client, runner, staticDirs, pybookVersion } = this.context;
    const hash = createHash('sha256');
    for (const part of [
      JSON.stringify(sites),
      JSON.stringify(routes),
      JSON.stringify(client.assets),
      [...client.files.keys()].sort().join('\n'),
      JSON.stringify(runner.data),
      [...runner.files.keys()].sort().join('\n'),
      template,
      pybookVersion,
      JSON.stringify(config.offline),
    ])
      hash.update(part).update('\0');
    for (const file of listStaticFiles(staticDirs, config.rootDir))
      hash.update(file.sitePath).update(readFileSync(file.source)).update('\0');
    this.build = hash.digest('hex').slice(0, 16);
  }

  /** The head of a locale's pages (see prepare). */
  pageHead(locale: LocaleInfo): OfflinePageHead {
    if (this.build === undefined) throw new Error('the offline feature has no build id: call prepare() first');
    return {
      build: this.build,
      manifest: this.context.config.basePath + webManifestFile(locale.urlPrefix),
      worker: this.siteData.worker,
    };
  }

  /**
   * Adds the web app manifests and the worker to the site. The worker lists every page's
   * revision, so it comes after the pages: with `documents` (a build that writes each page as it
   * is rendered) it is the last of the documents; otherwise the pages are in `files` already.
   */
  async finish(
    files: SiteFiles,
    documents: Iterable<[string, string]> | undefined,
    pages: PageModel[],
  ): Promise<Iterable<[string, string]> | undefined> {
    if (this.build === undefined) throw new Error('the offline feature has no build id: call prepare() first');
    const { config, book, sites, staticDirs, disk } = this.context;
    for (const locale of book.locales)
      files.set(
        webManifestFile(locale.urlPrefix),
        webManifest(config, locale, sites[locale.code], this.iconOf(staticDirs)),
      );
    const code = await workerScript(disk);
    const listed = this.listFiles(files);
    const pageFiles = new Map<string, OfflineFile>();
    for (const page of pages) {
      if (page.kind === 'notFound') continue;
      const file: OfflineFile = {
        u: page.route,
        b: 0,
        g: listed.groupIndex(page.locale),
        t: page.title || sites[page.locale].title,
        r: '',
      };
      pageFiles.set(page.outputFile, file);
      listed.files.push(file);
    }
    const script = (revisionOfDocument: (name: string) => { b: number; r: string } | undefined) => {
      for (const [name, file] of pageFiles) {
        const written = revisionOfDocument(name);
        if (written) Object.assign(file, written, { s: Math.ceil(written.b * TEXT_ON_THE_WIRE) });
      }
      // A page the build did not write (none should be missing) is not listed.
      listed.files = listed.files.filter((file) => file.r !== '');
      return this.workerSource(code, listed);
    };
    if (!documents) {
      files.set(
        WORKER_FILE,
        script((name) => {
          const contents = files.get(name);
          return contents === undefined ? undefined : { b: sizeOf(contents), r: revisionOf(contents) };
        }),
      );
      return undefined;
    }
    const seen = new Map<string, { b: number; r: string }>();
    return (function* () {
      for (const [name, document] of documents) {
        if (pageFiles.has(name)) seen.set(name, { b: Buffer.byteLength(document), r: revisionOf(document) });
        yield [name, document] as [string, string];
      }
      yield [WORKER_FILE, script((name) => seen.get(name))];
    })();
  }

  /** The book's logo (img/logo.svg in the static folder), if it has one: the installed app's icon. */
  private iconOf(staticDirs: string[]): string | undefined {
    const logo = listStaticFiles(staticDirs, this.context.config.rootDir).find(
      (file) => file.sitePath === 'img/logo.svg',
    );
    return logo ? this.context.config.basePath + logo.sitePath : undefined;
  }

  /** Every file but the pages, by group: the app, the runtime, each locale's modules, data and search files. */
  private listFiles(files: SiteFiles) {
    const { config, book, sites, client, runner, staticDirs } = this.context;
    const base = config.basePath;
    const groups = [APP_GROUP, RUNTIME_GROUP, ...book.locales.map((l) => l.code)];
    const groupIndex = (name: string) => groups.indexOf(name);
    const list: OfflineFile[] = [];
    const add = (sitePath: string, group: string, url = base + sitePath, contentNamed = true) => {
      const contents = files.get(sitePath);
      if (contents === undefined) return;
      const file: OfflineFile = { u: url, b: sizeOf(contents), g: groupIndex(group) };
      if (!contentNamed) file.r = revisionOf(contents);
      // What a download transfers: the compressed sibling the build wrote (Pyodide's files), else
      // for text about a quarter (servers compress it as they send it; gzip -1 makes 0.22 of this
      // book's pages, modules and search files), which `npm run bench` measures on the wire.
      const br = files.get(`${sitePath}.br`);
      if (br !== undefined) file.s = sizeOf(br);
      else if (TEXT_FILE.test(url)) file.s = Math.ceil(file.b * TEXT_ON_THE_WIRE);
      list.push(file);
    };
    for (const name of client.files.keys()) add(name, APP_GROUP);
    for (const file of listStaticFiles(staticDirs, config.rootDir)) {
      const bytes = readFileSync(file.source);
      list.push({
        u: base + file.sitePath,
        b: bytes.length,
        r: sha1(bytes).slice(0, REVISION_LENGTH),
        g: groupIndex(APP_GROUP),
      });
    }
    for (const locale of book.locales) add(webManifestFile(locale.urlPrefix), APP_GROUP, undefined, false);
    // The sandbox document and its launcher are folders' index.html, framed by the folder's URL.
    for (const name of runner.files.keys())
      if (!/\.(br|gz)$/.test(name)) add(name, RUNTIME_GROUP, base + name.replace(/(^|\/)index\.html$/, '$1'));
    const origin = new URL(config.siteUrl).origin;
    for (const locale of book.locales) {
      const site = sites[locale.code];
      for (const url of Object.values(site.routes)) add(url.slice(base.length), locale.code);
      for (const name of files.keys())
        if (name.startsWith(`assets/site/${locale.code}.`) && name.endsWith('.json')) add(name, locale.code);
      // The search files, at the URLs the page asks for them (versioned by a query).
      const { indexUrl, indexHash, textHash } = site.search;
      const index = indexUrl.startsWith(base) ? indexUrl.slice(base.length) : undefined;
      if (index === undefined || !files.has(index)) continue;
      const pageHref = origin + base;
      const path = (href: string) => href.slice(origin.length);
      add(index, locale.code, path(indexRequestUrl(indexUrl, indexHash, pageHref)));
      if (!textHash) continue;
      const folder = index.slice(0, index.lastIndexOf('/') + 1);
      for (const name of files.keys()) {
        if (!name.startsWith(folder)) continue;
        const page = /(\d+)/.exec(name.slice(folder.length))?.[1];
        if (page !== undefined && folder + textFileName(Number(page)) === name)
          add(name, locale.code, path(textRequestUrl(indexUrl, textHash, Number(page), pageHref)));
      }
    }
    return { groups, groupIndex, files: list };
  }

  private workerSource(code: string, listed: ReturnType<OfflineBuild['listFiles']>): string {
    const { config, book, client } = this.context;
    const manifest: OfflineManifest = {
      build: this.build!,
      scope: config.basePath,
      stylesheet: client.assets.stylesheet,
      groups: listed.groups,
      locales: book.locales.map((l) => ({
        code: l.code,
        label: l.label,
        htmlLang: l.htmlLang,
        home: config.basePath + l.urlPrefix,
      })),
      files: listed.files,
      strings: Object.fromEntries(
        book.locales.map((l) => {
          const strings = stringsFor(l.code).offline;
          return [
            l.code,
            {
              title: strings.offlinePageTitle,
              text: strings.offlinePageText,
              savedPages: strings.offlinePageSaved,
              noSavedPages: strings.offlinePageNothingSaved,
              home: strings.offlinePageHome,
              otherLanguages: strings.offlinePageOtherLanguages,
            },
          ];
        }),
      ),
    };
    return `self.__pybookOffline=${JSON.stringify(manifest)};\n${code}`;
  }
}
