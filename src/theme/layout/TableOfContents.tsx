import type { TocItem } from '../../pages/types.js';
import { useSite } from '../site-context.js';

/** "On this page": h2 and h3 of the chapter; `activeId` is the heading in view (set by the client). */
export function TableOfContents({ toc, activeId }: { toc: TocItem[]; activeId?: string }) {
  const { strings } = useSite();
  if (!toc.length) return null;
  return (
    <nav className="toc" aria-labelledby="toc-title">
      <p className="toc-title" id="toc-title">{strings.onThisPage}</p>
      <ul className="toc-list">
        {toc.map((item) => (
          <li key={item.id} className={`toc-item toc-depth-${item.depth}`}>
            <a className={`toc-link${item.id === activeId ? ' active' : ''}`} href={`#${item.id}`}>{item.text}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
