import { plural } from '../../i18n/plural.js';
import { useSite } from '../site-context.js';

/** The book's landing page at the base path: cover, title, tagline and a call to start reading. */
export function HomePage({ firstChapterHref, chapterCount }: { firstChapterHref?: string; chapterCount: number }) {
  const site = useSite();
  const count = site.strings.docCount;
  return (
    <div className="home">
      <div className="home-hero">
        <img className="home-cover" src={`${site.basePath}img/cover.svg`} alt="" width={240} height={320} />
        <div className="home-text">
          <h1 className="home-title">{site.title}</h1>
          <p className="home-tagline">{site.tagline}</p>
          {firstChapterHref && <a className="button button-primary" href={firstChapterHref}>{site.strings.startReading}</a>}
          <p className="home-meta">{plural(count, chapterCount, site.locale.htmlLang)}</p>
        </div>
      </div>
    </div>
  );
}
