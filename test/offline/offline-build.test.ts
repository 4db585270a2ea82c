/**
 * The build's side of reading offline (src/offline/node/): the web app manifests, the worker's
 * list of files with their revisions, the pages' head and CSP, and the switch that turns it off.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Builder, type BuildResult } from '../../src/generator/build.js';
import { bytesOf } from '../../src/output/copied-file.js';
import type { OfflineManifest } from '../../src/offline/shared/offline-data.js';
import { cacheKeyOf } from '../../src/offline/shared/offline-data.js';
import { offlinePageHtml } from '../../src/offline/shared/offline-page.js';
import { sandboxDocument, sandboxLauncher } from '../../src/runner/build/sandbox-document.js';
import { createTinyBook, type TinyBook } from '../watch/tiny-book.js';

const BASE = '/python-guide-for-javascript-engineers/';

let book: TinyBook;
let on: BuildResult;
let off: BuildResult;

const text = (result: BuildResult, name: string) => {
  const contents = result.files.get(name);
  if (contents === undefined) throw new Error(`${name} is not in the build`);
  return Buffer.from(bytesOf(contents)).toString('utf8');
};
const manifestOf = (result: BuildResult): OfflineManifest => {
  const worker = text(result, 'sw.js');
  return JSON.parse(worker.slice('self.__pybookOffline='.length, worker.indexOf(';\n'))) as OfflineManifest;
};
const policyOf = (html: string) => /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';

beforeAll(async () => {
  book = createTinyBook();
  on = await new Builder({ configPath: book.configPath }).build();
  book.writeConfig(['alpha', 'beta', 'gamma'], undefined, { offline: false });
  off = await new Builder({ configPath: book.configPath }).build();
});

afterAll(() => {
  if (book) rmSync(book.dir, { recursive: true, force: true });
});

describe('the web app manifest', () => {
  it('one per locale, named in its language, opening at its home page, its scope the base path', () => {
    const en = JSON.parse(text(on, 'manifest.webmanifest')) as Record<string, unknown>;
    const zh = JSON.parse(text(on, 'zh-cn/manifest.webmanifest')) as Record<string, unknown>;
    expect(en).toMatchObject({
      id: BASE,
      name: 'Tiny watch book',
      short_name: 'Tiny watch book',
      lang: 'en',
      start_url: BASE,
      scope: BASE,
      display: 'standalone',
    });
    expect(en.theme_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(en.background_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(zh).toMatchObject({
      id: `${BASE}zh-cn/`,
      name: 'Tiny watch book（中文）',
      lang: 'zh-CN',
      start_url: `${BASE}zh-cn/`,
      scope: BASE,
    });
    // Every page links its locale's manifest and carries the build's id.
    const page = text(on, 'alpha/index.html');
    expect(page).toContain(`<link rel="manifest" href="${BASE}manifest.webmanifest">`);
    expect(text(on, 'zh-cn/alpha/index.html')).toContain(
      `<link rel="manifest" href="${BASE}zh-cn/manifest.webmanifest">`,
    );
    expect(page).toContain(`<meta name="pybook-build" content="${manifestOf(on).build}">`);
  });
});

describe("the worker's list of files", () => {
  it('lists every page with the SHA-1 revision and title of the bytes the build wrote', () => {
    const manifest = manifestOf(on);
    const pages = manifest.files.filter((file) => file.t !== undefined);
    const routes = pages.map((file) => file.u).sort();
    expect(routes).toEqual(
      [
        BASE,
        `${BASE}alpha/`,
        `${BASE}beta/`,
        `${BASE}gamma/`,
        `${BASE}search/`,
        `${BASE}zh-cn/`,
        `${BASE}zh-cn/alpha/`,
        `${BASE}zh-cn/beta/`,
        `${BASE}zh-cn/gamma/`,
        `${BASE}zh-cn/search/`,
      ].sort(),
    );
    for (const file of pages) {
      const html = text(on, `${file.u.slice(BASE.length)}index.html`);
      expect(file.r).toBe(createHash('sha1').update(html).digest('hex').slice(0, 16));
      expect(file.b).toBe(Buffer.byteLength(html));
      expect(manifest.groups[file.g]).toBe(file.u.startsWith(`${BASE}zh-cn/`) ? 'zh-cn' : 'en');
    }
    expect(pages.find((file) => file.u === `${BASE}alpha/`)?.t).toBe('Alpha chapter');
    // The 404 page is not a page of the book.
    expect(routes.some((route) => route.includes('404'))).toBe(false);
  });

  it('lists only files the build wrote, each in its group, the client and the runtime by their content-named URLs', () => {
    const manifest = manifestOf(on);
    const groupOf = (u: string) => manifest.groups[manifest.files.find((file) => file.u === u)!.g];
    for (const file of manifest.files) {
      if (file.t !== undefined) continue;
      const path = file.u
        .slice(BASE.length)
        .split('?')[0]
        .replace(/(^|\/)$/, '$1index.html');
      expect(on.files.has(path), path).toBe(true);
      expect(file.b).toBe(bytesOf(on.files.get(path)!).byteLength);
      // A file not named by its content has the revision of its bytes; one named by its content, none.
      if (file.r !== undefined)
        expect(file.r).toBe(
          createHash('sha1')
            .update(bytesOf(on.files.get(path)!))
            .digest('hex')
            .slice(0, 16),
        );
    }
    const urls = manifest.files.map((file) => file.u);
    expect(urls.filter((u) => /\/assets\/app\.[A-Z0-9]+\.js$/.test(u)).map(groupOf)).toEqual(['app']);
    expect(urls.filter((u) => /\/assets\/offline\.[A-Z0-9]+\.js$/.test(u)).map(groupOf)).toEqual(['app']);
    expect(urls.filter((u) => u.includes('pyodide.asm.wasm')).map(groupOf)).toEqual(['runtime']);
    expect(urls.some((u) => /\.(br|gz)$/.test(u))).toBe(false);
    // The sandbox's launcher at the URL the page frames it by (its folder), in the runtime.
    const launchers = urls.filter((u) => u.includes('/assets/runner/launcher.'));
    expect(launchers).toHaveLength(1);
    expect(launchers[0]).toMatch(/\/assets\/runner\/launcher\.[0-9a-f]+\/$/);
    expect(groupOf(launchers[0])).toBe('runtime');
    expect(urls.some((u) => u.endsWith('/index.html'))).toBe(false);
    // Each locale's search index, at the URL the page asks for (versioned by a query).
    for (const locale of ['en', 'zh-cn']) {
      const index = manifest.files.find(
        (file) => manifest.groups[file.g] === locale && file.u.includes('search-index'),
      );
      expect(index?.u).toMatch(/search-index\.json\?_=[0-9a-z]+$/);
    }
    // The worker itself is not on its list; the web app manifests are, with revisions.
    expect(urls).not.toContain(`${BASE}sw.js`);
    expect(manifest.files.find((file) => file.u === `${BASE}manifest.webmanifest`)?.r).toMatch(/^[0-9a-f]{16}$/);
    expect(manifest.scope).toBe(BASE);
  });

  it('keys a file not named by its content by its revision', () => {
    expect(cacheKeyOf('http://h', { u: '/b/x/', r: 'abc' })).toBe('http://h/b/x/?__pybook=abc');
    expect(cacheKeyOf('http://h', { u: '/b/i.json?_=1', r: 'abc' })).toBe('http://h/b/i.json?_=1&__pybook=abc');
    expect(cacheKeyOf('http://h', { u: '/b/app.X.js' })).toBe('http://h/b/app.X.js');
  });

  it('two builds of the same inputs have the same id; a changed page changes it', async () => {
    book.writeConfig(['alpha', 'beta', 'gamma']);
    const again = await new Builder({ configPath: book.configPath }).build();
    expect(manifestOf(again).build).toBe(manifestOf(on).build);
    book.writeConfig(['alpha', 'beta'], 'Another tiny book');
    const changed = await new Builder({ configPath: book.configPath }).build();
    expect(manifestOf(changed).build).not.toBe(manifestOf(on).build);
  });
});

describe("the pages' policy", () => {
  it("allows the site's own worker and no other", () => {
    const policy = policyOf(text(on, 'alpha/index.html'));
    const workerSrc = /worker-src ([^;]+)/.exec(policy)?.[1];
    expect(workerSrc).toBe(`*:*${BASE}sw.js`);
    expect(policy).not.toContain('blob:');
  });
});

describe('"offline": false', () => {
  it('has no manifest, no build id, no worker allowed, and a sw.js that only removes an earlier one', () => {
    expect(off.files.has('manifest.webmanifest')).toBe(false);
    expect(off.files.has('zh-cn/manifest.webmanifest')).toBe(false);
    const page = text(off, 'alpha/index.html');
    expect(page).not.toContain('rel="manifest"');
    expect(page).not.toContain('pybook-build');
    expect(policyOf(page)).toContain("worker-src 'none'");
    const retiring = text(off, 'sw.js');
    expect(retiring).toContain('self.registration.unregister()');
    expect(retiring).toContain(`"pybook:${BASE}:"`);
    expect(retiring).not.toMatch(/addEventListener\('fetch'/);
    expect(retiring).not.toContain('__pybookOffline');
  });
});

describe('the sandbox launcher', () => {
  it('frames the sandbox document through srcdoc, sandboxed, under a policy that allows no request', () => {
    const sandbox = sandboxDocument('postMessage("hi")');
    const launcher = sandboxLauncher(sandbox);
    const policy = policyOf(launcher);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'none'");
    expect(policy).toContain('worker-src blob:');
    // Its own script and the sandbox's, by hash: the sandbox inherits this policy.
    expect(policy.match(/'sha256-[A-Za-z0-9+/=]+'/g)).toHaveLength(2);
    expect(launcher).toContain("f.setAttribute('sandbox','allow-scripts')");
    expect(launcher).not.toContain('allow-same-origin');
    // The sandbox document is held as a string that cannot end the launcher's script early.
    expect(launcher.match(/<\/script>/g)).toHaveLength(1);
  });
});

describe('the offline page', () => {
  it('escapes what it shows', () => {
    const html = offlinePageHtml({
      strings: { title: 'Off<line>', text: 't', savedPages: 's', noSavedPages: 'n', home: 'h', otherLanguages: 'o' },
      htmlLang: 'en',
      stylesheet: '/s.css',
      pages: [{ title: '<b>x</b>', href: '/a/"b' }],
      others: [{ label: '中文', htmlLang: 'zh-CN', href: '/zh-cn/' }],
    });
    expect(html).toContain('<title>Off&lt;line&gt;</title>');
    expect(html).toContain('<a href="/a/&quot;b">&lt;b&gt;x&lt;/b&gt;</a>');
    expect(html).toContain('<a href="/zh-cn/" lang="zh-CN" hreflang="zh-CN">中文</a>');
    expect(html).not.toContain('<script');
  });
});
