import { SitemapStream, streamToPromise } from 'sitemap';
import type { PageModel } from '../shared/model/page.js';

/** sitemap.xml: every indexable page of every locale, with its language alternates. */
export async function renderSitemap(
  pages: PageModel[],
  siteUrl: string,
  changefreq: string,
  priority: number,
): Promise<string> {
  const stream = new SitemapStream({
    hostname: siteUrl,
    xmlns: { news: false, video: false, image: false, xhtml: true },
  });
  const listed = pages.filter((p) => !p.unlisted && p.kind !== 'notFound' && p.kind !== 'search');
  for (const page of listed) {
    stream.write({
      url: page.route,
      changefreq,
      priority,
      links: page.alternates.map((alt) => ({ lang: alt.htmlLang, url: siteUrl + alt.href })),
    });
  }
  stream.end();
  return (await streamToPromise(stream)).toString();
}
