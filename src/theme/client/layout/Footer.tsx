import { format } from '../../../shared/i18n/plural.js';
import { FOOTER_ID } from '../../../shared/page-landmarks.js';
import { useSite } from '../site-context.js';

export function Footer() {
  const site = useSite();
  return (
    <footer id={FOOTER_ID} className="footer">
      <div className="footer-inner">
        <p>{site.footerCopyright}</p>
        <p className="footer-meta">
          <a href={site.repositoryUrl} rel="noopener">
            {site.strings.sourceRepository}
          </a>
          {' · '}
          {site.strings.footerBuiltWith}
          {' · '}
          <span>{format(site.strings.versionBadge, { version: site.siteVersion })}</span>
        </p>
      </div>
    </footer>
  );
}
