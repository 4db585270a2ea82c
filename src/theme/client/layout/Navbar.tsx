import { useSite } from '../site-context.js';
import { GitHubIcon, MenuIcon } from '../icons.js';
import type { Alternate } from '../../../shared/model/page.js';
import { ColorModeToggle } from './ColorModeToggle.js';
import { LanguageDropdown } from './LanguageDropdown.js';
import { SearchBox } from './SearchBox.js';
import { OfflineMenu } from './OfflineMenu.js';

interface Props {
  alternates: Alternate[];
  hidden: boolean;
  onOpenMenu: () => void;
  menuOpen: boolean;
}

/** Top bar: logo and title, languages (left); search, colour mode and the repository link (right). */
export function Navbar({ alternates, hidden, onOpenMenu, menuOpen }: Props) {
  const site = useSite();
  return (
    <nav className={`navbar${hidden ? ' navbar-hidden' : ''}`} aria-label="Main">
      <div className="navbar-inner">
        <div className="navbar-items">
          <button
            type="button"
            className="navbar-icon-button navbar-menu-toggle"
            aria-label={site.strings.openSidebar}
            aria-expanded={menuOpen}
            aria-controls="mobile-sidebar"
            onClick={onOpenMenu}
          >
            <MenuIcon />
          </button>
          <a className="navbar-brand" href={site.homeRoute}>
            <img className="navbar-logo" src={`${site.basePath}img/logo.svg`} alt="" width={32} height={32} />
            <span className="navbar-title">{site.title}</span>
          </a>
          <LanguageDropdown alternates={alternates} />
        </div>
        <div className="navbar-items navbar-items-right">
          <SearchBox />
          <OfflineMenu site={site} />
          <ColorModeToggle />
          <a
            className="navbar-icon-button"
            href={site.repositoryUrl}
            aria-label={site.strings.sourceRepository}
            title={site.strings.sourceRepository}
            rel="noopener"
          >
            <GitHubIcon />
          </a>
        </div>
      </div>
    </nav>
  );
}
