import { useEffect } from 'react';
import { applyContentStateLater } from '../../../client/core/content-events.js';
import type { ClientPage } from '../../../shared/model/page.js';
import { plural } from '../../../shared/i18n/plural.js';
import { useSite } from '../site-context.js';
import { Breadcrumbs } from '../layout/Breadcrumbs.js';
import { Pagination } from '../layout/Pagination.js';
import { CollapsibleTableOfContents } from '../layout/TableOfContents.js';
import { MarkdownActions } from '../../../llms/client/MarkdownActions.js';

/** A chapter: breadcrumbs, title, notices, the server-rendered content, edit link and pagination. */
export function ChapterPage({ page, html }: { page: ClientPage; html: string }) {
  const site = useSite();
  useEffect(() => applyContentStateLater(site, page.slug), [html, page.slug, site]);
  const { strings } = site;
  return (
    // A new article for each chapter: what the client adds to one (the reader's progress, a notice)
    // never stays on the next. data-chapter tells that client code which chapter this is.
    <article className="chapter" key={page.route} data-chapter={page.slug}>
      <Breadcrumbs items={page.breadcrumbs} />
      {page.unlisted && (
        <div className="admonition admonition-warning unlisted-banner" role="note">
          <p className="admonition-heading">{strings.unlistedTitle}</p>
          <div className="admonition-content">
            <p>{strings.unlistedBody}</p>
          </div>
        </div>
      )}
      {page.fallback && (
        <div className="admonition admonition-info fallback-banner" role="note">
          <div className="admonition-content">
            <p>{strings.notTranslated}</p>
          </div>
        </div>
      )}
      <header className="chapter-header">
        <h1>{page.title}</h1>
        {page.readingMinutes !== undefined && (
          <p className="chapter-meta">{plural(strings.readingTime, page.readingMinutes, site.locale.htmlLang)}</p>
        )}
        {page.markdownUrl && <MarkdownActions href={page.markdownUrl} strings={strings.markdown} />}
      </header>
      <CollapsibleTableOfContents toc={page.toc} />
      {/* The content is static HTML from the build: hydration keeps it as it is instead of shipping it again as JavaScript. */}
      <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} suppressHydrationWarning />
      <footer className="chapter-footer">
        {page.editUrl && (
          <a className="edit-link" href={page.editUrl} rel="noopener">
            {strings.editThisPage}
          </a>
        )}
      </footer>
      <Pagination previous={page.previous} next={page.next} />
    </article>
  );
}
