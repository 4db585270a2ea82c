import { useEffect } from 'react';
import { applyContentStateLater } from '../../../client/core/content-events.js';
import { plural } from '../../../shared/i18n/plural.js';
import { useSite } from '../site-context.js';

/**
 * The book's front door: cover, title and a way in, then the home page's sections (a comparison,
 * the projects, every part and chapter). Those are static HTML from the build, like a chapter's
 * content (see HomeSections.tsx), so the page ships no JavaScript for them.
 */
export function HomePage({
  html,
  cover,
  firstChapterHref,
  chapterCount,
}: {
  html: string;
  cover?: string;
  firstChapterHref?: string;
  chapterCount: number;
}) {
  const site = useSite();
  const { strings } = site;
  // The reader's progress (each part's count, where they left off, their data) once the page is idle.
  useEffect(() => applyContentStateLater(site), [html, site]);
  return (
    <div className="home">
      <div className="home-hero">
        <img
          className="home-cover"
          src={`${site.basePath}${cover ?? 'img/cover.svg'}`}
          alt=""
          width={240}
          height={320}
        />
        <div className="home-text">
          <h1 className="home-title">{site.title}</h1>
          <p className="home-tagline">{site.tagline}</p>
          {firstChapterHref && (
            <a className="button button-primary" href={firstChapterHref}>
              {strings.startReading}
            </a>
          )}
          <p className="home-meta">{plural(strings.docCount, chapterCount, site.locale.htmlLang)}</p>
        </div>
      </div>
      <div className="home-sections" dangerouslySetInnerHTML={{ __html: html }} suppressHydrationWarning />
    </div>
  );
}
