import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Builder, type BuildResult } from '../../src/generator/build.js';
import { bytesOf } from '../../src/output/copied-file.js';
import { en } from '../../src/shared/i18n/en.js';
import { zhCn } from '../../src/shared/i18n/zh-cn.js';
import type { SiteData } from '../../src/shared/model/page.js';
import {
  chapter,
  createFixtureBook,
  FIXTURE_BASE as BASE,
  FIXTURE_SITE_URL as ORIGIN,
  type FixtureBook,
} from '../fixtures/fixture-book.js';

/**
 * One small bilingual book built once: English has four chapters (one unlisted), Chinese
 * translates two of them, so "basics" falls back to English.
 */
const longText = Array.from({ length: 600 }, (_, i) => `word${i}`).join(' ');
const chapters = {
  en: {
    intro: chapter(
      'Intro',
      [
        'Read [the basics](./basics.mdx) and [numbers](./basics.mdx#numbers) first.',
        'A [missing anchor](./basics.mdx#no-such-heading) only warns.',
        '![logo](/img/logo.svg)',
        '## First section',
        '### A subsection',
        '#### Too deep for the table of contents',
      ].join('\n\n'),
      { description: 'Where the book starts', keywords: ['start', 'intro'] },
    ),
    basics: chapter('Basics', '## Numbers\n\nIntegers and floats.\n\nBack to [the intro](./intro.mdx).'),
    long: chapter('A long chapter', longText),
    secret: chapter('Secret page', 'Only with a direct link.', { unlisted: true }),
  },
  'zh-cn': {
    intro: chapter('介绍', '先读[基础](./basics.mdx)。\n\n## 第一节', { description: '本书从这里开始' }),
    long: chapter('很长的一章', longText),
    secret: chapter('秘密页面', '只有直接链接才能访问。', { unlisted: true }),
  },
};

let fixture: FixtureBook;
let result: BuildResult;
const html = (file: string): string => {
  const contents = result.files.get(file);
  if (contents === undefined) throw new Error(`the build wrote no ${file}`);
  return typeof contents === 'string' ? contents : Buffer.from(bytesOf(contents)).toString('utf8');
};
/** The pages: every HTML file but the example runner's sandbox document, an asset under assets/runner/. */
const htmlFiles = () => [...result.files.keys()].filter((f) => f.endsWith('.html') && !f.startsWith('assets/')).sort();

beforeAll(async () => {
  fixture = await createFixtureBook({
    chapters,
    sidebar: [
      { type: 'category', label: { en: 'Start', 'zh-cn': '开始' }, items: ['intro', 'basics'] },
      { type: 'category', label: { en: 'More', 'zh-cn': '更多' }, items: ['secret', 'long'] },
    ],
  });
  result = await new Builder({ configPath: fixture.configPath }).build();
});
afterAll(() => fixture.remove());

describe('routes', () => {
  it('every page of both languages is written as folder/index.html', () => {
    expect(htmlFiles()).toEqual([
      '404.html',
      'basics/index.html',
      'index.html',
      'intro/index.html',
      'long/index.html',
      'search/index.html',
      'secret/index.html',
      'zh-cn/404.html',
      'zh-cn/basics/index.html',
      'zh-cn/index.html',
      'zh-cn/intro/index.html',
      'zh-cn/long/index.html',
      'zh-cn/search/index.html',
      'zh-cn/secret/index.html',
    ]);
  });
});

describe('document head', () => {
  it('<title> is "Chapter | Site title" in each language', () => {
    expect(html('intro/index.html')).toContain('<title>Intro | Fixture guide</title>');
    expect(html('zh-cn/intro/index.html')).toContain('<title>介绍 | 测试指南</title>');
    expect(html('index.html')).toContain('<title>Fixture guide</title>');
    expect(html('zh-cn/basics/index.html')).toContain('<title>Basics | 测试指南</title>');
    expect(html('404.html')).toContain(`<title>${en.notFoundTitle} | Fixture guide</title>`);
  });

  it('meta description and keywords come from the front matter, else the tagline', () => {
    expect(html('intro/index.html')).toContain('<meta name="description" content="Where the book starts">');
    expect(html('intro/index.html')).toContain('<meta name="keywords" content="start, intro">');
    expect(html('zh-cn/intro/index.html')).toContain('<meta name="description" content="本书从这里开始">');
    expect(html('basics/index.html')).toContain('<meta name="description" content="A tagline for tests">');
    expect(html('index.html')).toContain('<meta name="keywords" content="Python, JavaScript">');
  });

  it('canonical URL and hreflang alternates for both languages', () => {
    const page = html('zh-cn/intro/index.html');
    expect(page).toContain(`<link rel="canonical" href="${ORIGIN}${BASE}zh-cn/intro/">`);
    expect(page).toContain(`<link rel="alternate" hreflang="en" href="${ORIGIN}${BASE}intro/">`);
    expect(page).toContain(`<link rel="alternate" hreflang="zh-CN" href="${ORIGIN}${BASE}zh-cn/intro/">`);
    expect(page).toContain(`<link rel="alternate" hreflang="x-default" href="${ORIGIN}${BASE}intro/">`);
    expect(html('index.html')).toContain(`<link rel="canonical" href="${ORIGIN}${BASE}">`);
    expect(html('zh-cn/index.html')).toMatch(/<html lang="zh-CN" dir="ltr"/);
  });

  it('sets the colour mode in an inline script before the stylesheet, so the first paint has the right colours', () => {
    for (const file of htmlFiles()) {
      const page = html(file);
      const head = page.slice(0, page.indexOf('</head>'));
      const script = head.indexOf('<script>');
      const stylesheet = head.indexOf('<link rel="stylesheet"');
      expect(script, file).toBeGreaterThan(-1);
      expect(stylesheet, file).toBeGreaterThan(script);
      const inline = head.slice(script, head.indexOf('</script>', script));
      expect(inline).toContain("localStorage.getItem('theme')");
      expect(inline).toContain('prefers-color-scheme: dark');
      expect(inline).toContain('d.dataset.theme=t');
    }
  });
  it('holds the first frame until <main> has been parsed to its end: the head expects the footer, which follows </main>', () => {
    for (const file of htmlFiles()) {
      const page = html(file);
      const head = page.slice(0, page.indexOf('</head>'));
      const expectLink = /<link rel="expect" href="#([^"]+)" blocking="render">/.exec(head);
      expect(expectLink, file).not.toBeNull();
      const target = ` id="${expectLink![1]}"`;
      const at = page.indexOf(target);
      expect(at, file).toBeGreaterThan(-1);
      expect(page.indexOf(target, at + 1), `${file}: one element has the id`).toBe(-1);
      // Only the ends of <main>'s wrappers lie between </main> and the target's start tag.
      const mainEnd = page.lastIndexOf('</main>', at);
      expect(mainEnd, file).toBeGreaterThan(-1);
      expect(page.slice(mainEnd + '</main>'.length, page.lastIndexOf('<', at)), file).toMatch(/^(\s*<\/div>)*\s*$/);
    }
  });
});

describe('base path', () => {
  it('every root-relative URL in every page carries the base path', () => {
    const urlAttribute = /\s(?:href|src|action|content)="(\/[^"]*)"/g;
    let checked = 0;
    for (const file of htmlFiles()) {
      for (const [, url] of html(file).matchAll(urlAttribute)) {
        expect(url.startsWith(BASE), `${file}: ${url}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('URLs in the data the client hydrates with carry it too', () => {
    const data = /<script id="__PYBOOK_DATA__" type="application\/json">([^<]*)<\/script>/.exec(
      html('intro/index.html'),
    )![1];
    const { siteDataUrl } = JSON.parse(data) as { siteDataUrl: string };
    expect(siteDataUrl).toMatch(new RegExp(`^${BASE}assets/site/en\\.[0-9a-f]{10}\\.json$`));
    const siteData = html(siteDataUrl.slice(BASE.length));
    const paths = [...`${data}${siteData}`.matchAll(/"(\/[^"]*)"/g)].map((m) => m[1]);
    expect(paths.length).toBeGreaterThan(10);
    for (const url of paths) expect(url.startsWith(BASE), url).toBe(true);
  });

  it('site data is one shared file per locale, named by every page instead of inlined in it, and not fetched before load', () => {
    const siteFiles = [...result.files.keys()].filter((f) => f.startsWith('assets/site/'));
    expect(siteFiles).toHaveLength(2);
    for (const file of htmlFiles()) {
      const page = html(file);
      const { siteDataUrl: url } = JSON.parse(
        /<script id="__PYBOOK_DATA__" type="application\/json">([^<]*)<\/script>/.exec(page)![1],
      ) as { siteDataUrl: string };
      expect(siteFiles).toContain(url.slice(BASE.length));
      // The app fetches it after the page is shown (src/client/hydrate.tsx): no preload competes with the page.
      expect(page).not.toContain(`<link rel="preload" href="${url}"`);
      // The sidebar is in the page as HTML only, never a second time as data.
      expect(page).not.toContain('"sidebar":');
    }
    const zh = JSON.parse(html(siteFiles.find((f) => f.includes('/zh-cn.'))!)) as SiteData;
    expect(zh.locale.code).toBe('zh-cn');
    expect(zh.routes[`${BASE}zh-cn/intro/`]).toMatch(/assets\/pages\/zh-cn\/intro\.[0-9a-f]{10}\.js$/);
  });

  it('chapter links, images and sidebar links resolve under it in each locale', () => {
    const intro = html('intro/index.html');
    expect(intro).toContain(`<a href="${BASE}basics/">the basics</a>`);
    expect(intro).toContain(`<a href="${BASE}basics/#numbers">numbers</a>`);
    expect(intro).toContain(`<img src="${BASE}img/logo.svg" alt="logo"/>`);
    expect(html('zh-cn/intro/index.html')).toContain(`<a href="${BASE}zh-cn/basics/">基础</a>`);
  });
});

describe('chapter pages', () => {
  it('the table of contents lists levels 2 and 3 only', () => {
    const intro = result.pages.find((p) => p.locale === 'en' && p.slug === 'intro')!;
    expect(intro.toc).toEqual([
      { id: 'first-section', text: 'First section', depth: 2 },
      { id: 'a-subsection', text: 'A subsection', depth: 3 },
    ]);
  });

  it('reading time uses the singular and plural forms', () => {
    expect(html('intro/index.html')).toContain(`<p class="chapter-meta">${en.readingTime.one}</p>`);
    expect(html('long/index.html')).toContain('<p class="chapter-meta">3 min read</p>');
    expect(html('zh-cn/intro/index.html')).toContain('<p class="chapter-meta">阅读需 1 分钟</p>');
    expect(html('zh-cn/long/index.html')).toContain('<p class="chapter-meta">阅读需 3 分钟</p>');
  });

  it('pagination follows the sidebar and skips the unlisted chapter', () => {
    const basics = result.pages.find((p) => p.locale === 'en' && p.slug === 'basics')!;
    expect(basics.previous).toEqual({ label: 'Intro', href: `${BASE}intro/` });
    expect(basics.next).toEqual({ label: 'A long chapter', href: `${BASE}long/` });
  });
});

describe('fallback', () => {
  it('a chapter missing in Chinese shows the English text under a visible note', () => {
    const page = html('zh-cn/basics/index.html');
    expect(page).toContain(
      `<div class="admonition admonition-info fallback-banner" role="note"><div class="admonition-content"><p>${zhCn.notTranslated}</p></div></div>`,
    );
    expect(page).toContain('Integers and floats.');
    expect(page).toContain('<html lang="zh-CN"');
    // Its links stay in the Chinese site.
    expect(page).toContain(`<a href="${BASE}zh-cn/intro/">the intro</a>`);
    expect(html('zh-cn/intro/index.html')).not.toContain('fallback-banner');
    expect(html('basics/index.html')).not.toContain('fallback-banner');
  });

  it('the build result counts fallbacks per locale', () => {
    expect(result.fallbacks).toEqual({ en: 0, 'zh-cn': 1 });
  });
});

describe('unlisted pages', () => {
  it('are built and reachable, carry noindex and show the unlisted banner', () => {
    for (const [file, strings] of [
      ['secret/index.html', en],
      ['zh-cn/secret/index.html', zhCn],
    ] as const) {
      const page = html(file);
      expect(page).toContain('<meta name="robots" content="noindex, nofollow">');
      expect(page).toContain(
        `<p class="admonition-heading">${strings.unlistedTitle}</p><div class="admonition-content"><p>${strings.unlistedBody}</p></div>`,
      );
    }
    expect(html('intro/index.html')).not.toContain('noindex');
  });

  it('are left out of the sidebar, pagination, sitemap and search', () => {
    for (const file of htmlFiles()) {
      if (file.includes('secret/')) continue;
      expect(html(file), file).not.toMatch(/href="[^"]*\/secret\/"/);
    }
    for (const site of Object.values(result.sites)) expect(JSON.stringify(site.sidebar)).not.toContain('secret');
    // Nor does the route map every page loads name it (a direct link loads the page whole).
    for (const site of Object.values(result.sites)) expect(JSON.stringify(site.routes)).not.toContain('secret');
    expect(html('sitemap.xml')).not.toContain('secret');
    expect(html('search-index.json')).not.toContain('Secret page');
    expect(html('zh-cn/search-index.json')).not.toContain('秘密页面');
    const secret = result.pages.find((p) => p.slug === 'secret' && p.locale === 'en')!;
    expect(secret.previous).toBeUndefined();
    expect(secret.next).toBeUndefined();
  });
});

describe('warnings', () => {
  it('a broken anchor warns with file and line but does not fail the build', () => {
    const anchor = result.warnings.find((w) => w.message.includes('no-such-heading'));
    expect(anchor).toMatchObject({
      line: 9,
      message: 'broken anchor "./basics.mdx#no-such-heading": "basics" has no heading with id "no-such-heading"',
    });
    expect(anchor!.file).toMatch(/book\/en\/intro\.mdx$/);
  });
});

describe('sitemap.xml', () => {
  it('lists every listed page of both languages, weekly with priority 0.5', () => {
    const sitemap = html('sitemap.xml');
    const locs = [...sitemap.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]).sort();
    const routes = ['', 'basics/', 'intro/', 'long/'];
    expect(locs).toEqual(
      [...routes.map((r) => `${ORIGIN}${BASE}${r}`), ...routes.map((r) => `${ORIGIN}${BASE}zh-cn/${r}`)].sort(),
    );
    expect(sitemap.match(/<changefreq>weekly<\/changefreq>/g)).toHaveLength(locs.length);
    expect(sitemap.match(/<priority>0.5<\/priority>/g)).toHaveLength(locs.length);
    expect(sitemap).toContain(`<xhtml:link rel="alternate" hreflang="zh-CN" href="${ORIGIN}${BASE}zh-cn/intro/"/>`);
    expect(html('robots.txt')).toContain(`Sitemap: ${ORIGIN}${BASE}sitemap.xml`);
  });
});
