import { useEffect, useRef } from 'react';
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

/**
 * "On this page": h2 and h3 of the chapter; `activeId` is the heading in view (set by the client).
 * A page has two, one shown at a time (styles.css): in a column right of the chapter from 1720 px,
 * at the top of the sidebar from 1280 px (`className` "sidebar-toc"). A long list scrolls on its
 * own, and keeps the highlighted section in sight as the reader goes on.
 */
export function TableOfContents({
  toc,
  activeId,
  className = '',
  titleId = 'toc-title',
}: {
  toc: TocItem[];
  activeId?: string;
  className?: string;
  /** The title's id, unique on the page. */
  titleId?: string;
}) {
  const { strings } = useSite();
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    const box = nav.current;
    const link = box?.querySelector<HTMLElement>('.toc-link.active');
    if (!box || !link || box.scrollHeight <= box.clientHeight) return;
    const [outer, inner] = [box.getBoundingClientRect(), link.getBoundingClientRect()];
    // Only the list scrolls, never the page; nothing happens while it is not displayed (0 high).
    if (inner.top < outer.top) box.scrollTop -= outer.top - inner.top + inner.height;
    else if (inner.bottom > outer.bottom) box.scrollTop += inner.bottom - outer.bottom + inner.height;
  }, [activeId]);
  if (!toc.length) return null;
  return (
    <nav ref={nav} className={className ? `toc ${className}` : 'toc'} aria-labelledby={titleId}>
      <p className="toc-title" id={titleId}>
        {strings.onThisPage}
      </p>
      <TocList toc={toc} activeId={activeId} />
    </nav>
  );
}

/**
 * The same list at the top of the article on screens too narrow for a table of contents beside the
 * chapter (below 1280 px): closed at first, and a native disclosure, so it works without JavaScript.
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
