import type { ClientPage, SiteData } from '../../shared/model/page.js';
import { MAIN_CONTENT_ID } from '../../shared/page-landmarks.js';
import { ErrorBoundary } from './ErrorBoundary.js';
import { useActiveHeading, useHideOnScroll, useMobileMenu, useSidebarHidden } from './hooks/use-browser-state.js';
import { AnnouncementBar } from './layout/AnnouncementBar.js';
import { Footer } from './layout/Footer.js';
import { Navbar } from './layout/Navbar.js';
import { MobileSidebar, Sidebar } from './layout/Sidebar.js';
import { TableOfContents } from './layout/TableOfContents.js';
import { ChapterPage } from './pages/ChapterPage.js';
import { HomePage } from './pages/HomePage.js';
import { NotFoundPage } from './pages/NotFoundPage.js';
import { SearchPage } from './pages/SearchPage.js';
import { flattenSidebar } from '../../shared/model/sidebar.js';
import { format } from '../../shared/i18n/plural.js';
import { SiteContext } from './site-context.js';

export interface AppProps {
  site: SiteData;
  page: ClientPage;
  /** The page's content HTML (chapters only). */
  html: string;
  /** Set by the client when the site is opened under a path that does not match the base path. */
  baseUrlWarning?: boolean;
}

function Main({ site, page, html }: AppProps) {
  switch (page.kind) {
    case 'home': {
      const chapters = flattenSidebar(site.sidebar).slice(1);
      return (
        <HomePage html={html} cover={page.cover} firstChapterHref={chapters[0]?.href} chapterCount={chapters.length} />
      );
    }
    case 'search':
      return <SearchPage />;
    case 'notFound':
      return <NotFoundPage />;
    default:
      return <ChapterPage page={page} html={html} />;
  }
}

/** The whole page, rendered by the server and hydrated by the client. */
export function App(props: AppProps) {
  const { site, page } = props;
  const [sidebarHidden, setSidebarHidden] = useSidebarHidden();
  const navbarHidden = useHideOnScroll(site.hideNavbarOnScroll);
  const [menuOpen, setMenuOpen] = useMobileMenu(page.route);
  const activeId = useActiveHeading(
    page.toc.map((t) => t.id),
    page.route,
  );
  const hasSidebar = page.kind === 'chapter';
  return (
    <SiteContext.Provider value={site}>
      <div id="route-announcer" className="visually-hidden" aria-live="polite" aria-atomic="true" />
      <a className="skip-to-content" href={`#${MAIN_CONTENT_ID}`}>
        {site.strings.skipToContent}
      </a>
      {/* Always rendered, hidden: when the site sits under the wrong path its scripts usually fail to
          load too, so the inline head script (HEAD_SCRIPT) unhides it without React. */}
      <div className="base-url-warning" role="alert" data-base-path={site.basePath} hidden={!props.baseUrlWarning}>
        {format(site.strings.baseUrlWarning, { basePath: site.basePath })}
      </div>
      <AnnouncementBar />
      <Navbar
        alternates={page.alternates}
        hidden={navbarHidden}
        menuOpen={menuOpen}
        onOpenMenu={() => setMenuOpen(true)}
      />
      <MobileSidebar currentRoute={page.route} open={menuOpen} onClose={() => setMenuOpen(false)} />
      <div className={`page-wrapper${hasSidebar ? ' has-sidebar' : ''}`}>
        {hasSidebar && (
          <Sidebar
            currentRoute={page.route}
            hidden={sidebarHidden}
            onToggle={() => setSidebarHidden(!sidebarHidden)}
            toc={page.toc}
            activeId={activeId}
          />
        )}
        <main id={MAIN_CONTENT_ID} className={`main page-${page.kind}`} tabIndex={-1}>
          <ErrorBoundary title={site.strings.crashTitle} retryLabel={site.strings.crashTryAgain} resetKey={page.route}>
            <div className="main-columns">
              <div className="main-content">
                <Main {...props} />
              </div>
              {page.kind === 'chapter' && page.toc.length > 0 && (
                <div className="main-toc">
                  <TableOfContents toc={page.toc} activeId={activeId} />
                </div>
              )}
            </div>
          </ErrorBoundary>
        </main>
      </div>
      <Footer />
    </SiteContext.Provider>
  );
}
