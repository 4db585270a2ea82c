import type { NavLink } from '../../../shared/model/page.js';
import { useSite } from '../site-context.js';

export function Breadcrumbs({ items }: { items: NavLink[] }) {
  const { strings } = useSite();
  if (!items.length) return null;
  return (
    <nav className="breadcrumbs" aria-label={strings.breadcrumbs}>
      <ol>
        {items.map((item, i) => (
          <li key={i} className="breadcrumb-item">
            {item.href ? (
              <a href={item.href} title={i === 0 ? strings.breadcrumbHome : undefined}>
                {item.label}
              </a>
            ) : (
              <span aria-current={i === items.length - 1 ? 'page' : undefined}>{item.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
