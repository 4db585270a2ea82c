import type { TocItem } from '../../../shared/model/page.js';
import { useSite } from '../site-context.js';

function TocList({ toc, activeId }: { toc: TocItem[]; activeId?: string }) {
  return (
    <ul className="toc-list">
      {toc.map((item) => (
        <li key={item.id} className={`toc-item toc-depth-${item.depth}`}>
          <a className={`toc-link${item.id === activeId ? ' active' : ''}`} href={`#${item.id}`}>
            {item.text}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** "On this page": h2 and h3 of the chapter; `activeId` is the heading in view (set by the client). */
export function TableOfContents({ toc, activeId }: { toc: TocItem[]; activeId?: string }) {
  const { strings } = useSite();
  if (!toc.length) return null;
  return (
    <nav className="toc" aria-labelledby="toc-title">
      <p className="toc-title" id="toc-title">
        {strings.onThisPage}
      </p>
      <TocList toc={toc} activeId={activeId} />
    </nav>
  );
}

/**
 * The same list at the top of the article on screens too narrow for the right-hand column:
 * closed at first, and a native disclosure, so it works without JavaScript.
 */
export function CollapsibleTableOfContents({ toc }: { toc: TocItem[] }) {
  const { strings } = useSite();
  if (!toc.length) return null;
  return (
    <details className="toc-collapsible">
      <summary>{strings.onThisPage}</summary>
      <nav aria-label={strings.onThisPage}>
        <TocList toc={toc} />
      </nav>
    </details>
  );
}
