import { useContext, useEffect, useRef, useState } from 'react';
import type { SidebarEntry, TocItem } from '../../../shared/model/page.js';
import { containsRoute } from '../../../shared/model/sidebar.js';
import { useSite } from '../site-context.js';
import { ChevronIcon } from '../icons.js';
import { SidebarMarkupContext } from './sidebar-markup.js';
import { TableOfContents } from './TableOfContents.js';

interface ItemsProps {
  entries: SidebarEntry[];
  /** The page shown: its link is marked. */
  currentRoute: string;
  /** The page whose categories are open even when configured collapsed (the current page, except while the build renders markup shared by many pages). */
  openRoute?: string;
  level?: number;
}

function Category({
  entry,
  currentRoute,
  openRoute,
  level,
}: {
  entry: Extract<SidebarEntry, { type: 'category' }>;
  currentRoute: string;
  openRoute: string;
  level: number;
}) {
  // A collapsed category opens on the pages of its own chapters, so readers always see where they are.
  const holdsOpenRoute = containsRoute(entry.items, openRoute);
  const [collapsed, setCollapsed] = useState(entry.collapsed && !holdsOpenRoute);
  // Client navigation into a collapsed category (Next, a link) opens it too.
  const [heldOpenRoute, setHeldOpenRoute] = useState(holdsOpenRoute);
  if (heldOpenRoute !== holdsOpenRoute) {
    setHeldOpenRoute(holdsOpenRoute);
    if (holdsOpenRoute) setCollapsed(false);
  }
  // A native disclosure: it opens and closes before the app hydrates too, and hydration keeps
  // what the reader did (hydration leaves the element's state alone; React takes it up here, and
  // follows it through onToggle from then on).
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const open = details.current?.open;
    if (open !== undefined) setCollapsed(!open);
  }, []);
  return (
    <li className="sidebar-category">
      <details ref={details} open={!collapsed} onToggle={(event) => setCollapsed(!event.currentTarget.open)}>
        <summary className="sidebar-category-button">
          <span>{entry.label}</span>
          <ChevronIcon />
        </summary>
        <SidebarItems entries={entry.items} currentRoute={currentRoute} openRoute={openRoute} level={level + 1} />
      </details>
    </li>
  );
}

export function SidebarItems({ entries, currentRoute, openRoute = currentRoute, level = 1 }: ItemsProps) {
  return (
    <ul className={`sidebar-list sidebar-level-${level}`}>
      {entries.map((entry) =>
        entry.type === 'link' ? (
          <li key={entry.href} className="sidebar-item">
            <a
              className={`sidebar-link${entry.href === currentRoute ? ' active' : ''}`}
              href={entry.href}
              aria-current={entry.href === currentRoute ? 'page' : undefined}
            >
              {entry.label}
            </a>
          </li>
        ) : (
          <Category key={entry.label} entry={entry} currentRoute={currentRoute} openRoute={openRoute} level={level} />
        ),
      )}
    </ul>
  );
}

/**
 * The docs sidebar (desktop), hideable with a button at its foot. Above the chapters, the chapter's
 * "On this page" (shown from 1280 px to 1719 px, where the content has no room for a column of its
 * own): at the top, it stays put while the sidebar grows and shrinks with the navbar (at the foot it
 * moved, a layout shift each time).
 */
export function Sidebar({
  currentRoute,
  hidden,
  onToggle,
  toc = [],
  activeId,
}: {
  currentRoute: string;
  hidden: boolean;
  onToggle: () => void;
  toc?: TocItem[];
  activeId?: string;
}) {
  const site = useSite();
  const markup = useContext(SidebarMarkupContext);
  const aside = useRef<HTMLElement>(null);
  // The current chapter's link is in view: scroll the sidebar (never the page) to it when it is not.
  useEffect(() => {
    const nav = aside.current?.querySelector<HTMLElement>('.sidebar-nav');
    const link = nav?.querySelector<HTMLElement>('a[aria-current="page"]');
    if (!nav || !link) return;
    const [box, target] = [nav.getBoundingClientRect(), link.getBoundingClientRect()];
    if (target.top < box.top || target.bottom > box.bottom)
      nav.scrollTop += target.top - box.top - (box.height - target.height) / 2;
  }, [currentRoute, hidden]);
  return (
    <aside
      ref={aside}
      className={`sidebar${hidden ? ' sidebar-hidden' : ''}`}
      aria-label={site.strings.docsSidebarLabel}
    >
      {!hidden && <TableOfContents toc={toc} activeId={activeId} className="sidebar-toc" titleId="sidebar-toc-title" />}
      {!hidden &&
        (markup ? (
          <nav
            className="sidebar-nav"
            aria-label={site.strings.docsSidebarLabel}
            dangerouslySetInnerHTML={{ __html: markup(currentRoute) }}
          />
        ) : (
          <nav className="sidebar-nav" aria-label={site.strings.docsSidebarLabel}>
            <SidebarItems entries={site.sidebar} currentRoute={currentRoute} />
          </nav>
        ))}
      <button
        type="button"
        className="sidebar-toggle"
        onClick={onToggle}
        aria-label={hidden ? site.strings.showSidebar : site.strings.hideSidebar}
        title={hidden ? site.strings.showSidebar : site.strings.hideSidebar}
      >
        <span aria-hidden="true">{hidden ? '»' : '«'}</span>
      </button>
    </aside>
  );
}

const FOCUSABLE = 'a[href], button:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/**
 * The same tree in a modal panel for narrow screens (below 996 px): focus moves in (to the current
 * chapter's link), Tab stays inside, Escape or a click outside closes it and focus returns to the
 * menu button, and the page behind does not scroll. Its links navigate like the desktop sidebar's
 * (the router's click listener sees them: nothing here stops the click from bubbling).
 */
export function MobileSidebar({
  currentRoute,
  open,
  onClose,
}: {
  currentRoute: string;
  open: boolean;
  onClose: () => void;
}) {
  const site = useSite();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const node = panel.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    const target =
      panel.current?.querySelector<HTMLElement>('a[aria-current="page"]') ??
      panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    target?.focus({ preventScroll: true });
    target?.scrollIntoView({ block: 'center' });
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Tab' || !panel.current) return;
      const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => el.offsetParent !== null,
      );
      if (!items.length) return;
      const [first, last] = [items[0], items[items.length - 1]];
      if (event.shiftKey && (document.activeElement === first || !panel.current.contains(document.activeElement))) {
        event.preventDefault();
        last.focus();
      } else if (
        !event.shiftKey &&
        (document.activeElement === last || !panel.current.contains(document.activeElement))
      ) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = overflow;
      // Back to the menu button, unless a navigation has moved focus on purpose since.
      const toggle = document.querySelector<HTMLElement>('.navbar-menu-toggle');
      if (!document.activeElement || document.activeElement === document.body || node?.contains(document.activeElement))
        (opener ?? toggle)?.focus({ preventScroll: true });
    };
  }, [open]);
  if (!open) return null;
  return (
    <div
      className="mobile-sidebar-backdrop"
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        id="mobile-sidebar"
        ref={panel}
        className="mobile-sidebar"
        role="dialog"
        aria-modal="true"
        aria-label={site.strings.docsSidebarLabel}
      >
        <div className="mobile-sidebar-header">
          <a className="navbar-brand" href={site.homeRoute}>
            {site.title}
          </a>
          <button
            type="button"
            className="navbar-icon-button mobile-sidebar-close"
            aria-label={site.strings.closeSidebar}
            onClick={onClose}
          >
            ×
          </button>
        </div>
        <nav aria-label={site.strings.docsSidebarLabel}>
          <SidebarItems entries={site.sidebar} currentRoute={currentRoute} />
        </nav>
      </div>
    </div>
  );
}
