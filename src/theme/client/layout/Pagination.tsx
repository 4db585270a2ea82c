import type { NavLink } from '../../../shared/model/page.js';
import { useSite } from '../site-context.js';

export function Pagination({ previous, next }: { previous?: NavLink; next?: NavLink }) {
  const { strings } = useSite();
  if (!previous && !next) return null;
  return (
    <nav className="pagination" aria-label={strings.paginationLabel}>
      {previous ? (
        <a className="pagination-link pagination-previous" href={previous.href} rel="prev">
          <span className="pagination-sublabel">{strings.previous}</span>
          <span className="pagination-label">« {previous.label}</span>
        </a>
      ) : (
        <span />
      )}
      {next && (
        <a className="pagination-link pagination-next" href={next.href} rel="next">
          <span className="pagination-sublabel">{strings.next}</span>
          <span className="pagination-label">{next.label} »</span>
        </a>
      )}
    </nav>
  );
}
