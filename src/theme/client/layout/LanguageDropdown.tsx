import { useSite } from '../site-context.js';
import { GlobeIcon, ChevronIcon } from '../icons.js';
import type { Alternate } from '../../../shared/model/page.js';

/**
 * Language menu built on <details> so it opens without JavaScript. Each entry points at the
 * same page in that language; the client adds the current #anchor when it is clicked.
 */
export function LanguageDropdown({ alternates }: { alternates: Alternate[] }) {
  const { locale, locales, strings } = useSite();
  const targets = alternates.length
    ? alternates
    : locales.map((l) => ({ locale: l.code, htmlLang: l.htmlLang, label: l.label, href: '' }));
  return (
    <details className="dropdown language-dropdown">
      <summary className="navbar-link" aria-label={`${strings.languageMenu}: ${locale.label}`}>
        <GlobeIcon /> <span>{locale.label}</span> <ChevronIcon />
      </summary>
      <ul className="dropdown-menu">
        {targets.map((alt) => (
          <li key={alt.locale}>
            <a
              className={`dropdown-link${alt.locale === locale.code ? ' active' : ''}`}
              href={alt.href || undefined}
              hrefLang={alt.htmlLang}
              lang={alt.htmlLang}
              data-locale-switch=""
              aria-current={alt.locale === locale.code ? 'true' : undefined}
            >
              {alt.label}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
