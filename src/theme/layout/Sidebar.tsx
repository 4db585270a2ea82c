import { useContext, useState } from 'react';
import type { SidebarEntry } from '../../pages/types.js';
import { useSite } from '../site-context.js';
import { ChevronIcon } from '../icons.js';
import { SidebarMarkupContext } from './sidebar-markup.js';

function Category({ entry, currentRoute, level }: { entry: Extract<SidebarEntry, { type: 'category' }>; currentRoute: string; level: number }) {
  const [collapsed, setCollapsed] = useState(entry.collapsed);
  return (
    <li className={`sidebar-category${collapsed ? ' collapsed' : ''}`}>
      <button type="button" className="sidebar-category-button" aria-expanded={!collapsed} onClick={() => setCollapsed(!collapsed)}>
        <span>{entry.label}</span>
        <ChevronIcon />
      </button>
      {!collapsed && <SidebarItems entries={entry.items} currentRoute={currentRoute} level={level + 1} />}
    </li>
  );
}

export function SidebarItems({ entries, currentRoute, level = 1 }: { entries: SidebarEntry[]; currentRoute: string; level?: number }) {
  return (
    <ul className={`sidebar-list sidebar-level-${level}`}>
      {entries.map((entry) =>
        entry.type === 'link' ? (
          <li key={entry.href} className="sidebar-item">
            <a className={`sidebar-link${entry.href === currentRoute ? ' active' : ''}`} href={entry.href}
              aria-current={entry.href === currentRoute ? 'page' : undefined}>
              {entry.label}
            </a>
          </li>
        ) : (
          <Category key={entry.label} entry={entry} currentRoute={currentRoute} level={level} />
        ),
      )}
    </ul>
  );
}

/** The docs sidebar (desktop), hideable with a button at its foot. */
export function Sidebar({ currentRoute, hidden, onToggle }: { currentRoute: string; hidden: boolean; onToggle: () => void }) {
  const site = useSite();
  const markup = useContext(SidebarMarkupContext);
  return (
    <aside className={`sidebar${hidden ? ' sidebar-hidden' : ''}`} aria-label={site.strings.docsSidebarLabel}>
      {!hidden && (markup ? (
        <nav className="sidebar-nav" aria-label={site.strings.docsSidebarLabel} dangerouslySetInnerHTML={{ __html: markup(currentRoute) }} />
      ) : (
        <nav className="sidebar-nav" aria-label={site.strings.docsSidebarLabel}>
          <SidebarItems entries={site.sidebar} currentRoute={currentRoute} />
        </nav>
      ))}
      <button type="button" className="sidebar-toggle" onClick={onToggle}
        aria-label={hidden ? site.strings.showSidebar : site.strings.hideSidebar} title={hidden ? site.strings.showSidebar : site.strings.hideSidebar}>
        <span aria-hidden="true">{hidden ? '»' : '«'}</span>
      </button>
    </aside>
  );
}

/** The same tree in a panel for narrow screens (below 996 px). */
export function MobileSidebar({ currentRoute, open, onClose }: { currentRoute: string; open: boolean; onClose: () => void }) {
  const site = useSite();
  if (!open) return null;
  return (
    <div className="mobile-sidebar-backdrop" onClick={onClose}>
      <div id="mobile-sidebar" className="mobile-sidebar" role="dialog" aria-modal="true" aria-label={site.strings.docsSidebarLabel} onClick={(e) => e.stopPropagation()}>
        <div className="mobile-sidebar-header">
          <a className="navbar-brand" href={site.homeRoute}>{site.title}</a>
          <button type="button" className="navbar-icon-button mobile-sidebar-close" aria-label={site.strings.closeSidebar} onClick={onClose}>×</button>
        </div>
        <nav aria-label={site.strings.docsSidebarLabel}>
          <SidebarItems entries={site.sidebar} currentRoute={currentRoute} />
        </nav>
      </div>
    </div>
  );
}
