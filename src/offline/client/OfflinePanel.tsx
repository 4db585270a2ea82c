import { useEffect, useSyncExternalStore } from 'react';
import { format } from '../../shared/i18n/index.js';
import type { SiteData } from '../../shared/model/page.js';
import type { LocaleStatus } from '../shared/offline-data.js';
import { offline, type OfflineSnapshot } from './controller.js';
import { adoptOfflineStyles } from './offline-styles.js';
import { useSite } from '../../theme/client/site-context.js';

/** A size for people: "31 MB", "840 kB", in the page's language. */
export function formatBytes(bytes: number, lang: string): string {
  const units: Array<[number, string]> = [
    [1e9, 'GB'],
    [1e6, 'MB'],
    [1e3, 'kB'],
  ];
  const [size, unit] = units.find(([size]) => bytes >= size) ?? [1, 'B'];
  const value = bytes / size;
  return `${new Intl.NumberFormat(lang, { maximumFractionDigits: value < 10 && unit !== 'B' ? 1 : 0 }).format(value)} ${unit}`;
}

/**
 * The "Read offline" menu's panel: for the page's language, what keeping the book on this device
 * takes and a button that does it, its progress, or that it is kept (and a way to remove it); the
 * book's other languages below, each with the same. What happens is said in a polite live region.
 */
export function OfflinePanel() {
  // The site from the page's context (not a prop): the lazily loaded entry then shares the theme's
  // chunk with the others instead of splitting it, which adds a chunk to every page's first load.
  const site = useSite();
  useEffect(() => {
    adoptOfflineStyles();
    // The menu opened before the page was idle: the worker starts now.
    offline.start(site);
    void offline.refresh().catch(() => {});
  }, [site]);
  const snapshot = useSyncExternalStore(offline.subscribe, offline.getSnapshot);
  const strings = site.strings.offline;
  const lang = site.locale.htmlLang;
  const size = (bytes: number) => formatBytes(bytes, lang);
  if (snapshot.phase === 'unsupported')
    return (
      <div className="offline-panel">
        <h2>{strings.menu}</h2>
        <p role="status">{strings.unsupported}</p>
      </div>
    );
  const statusOf = (code: string) => snapshot.status?.locales.find((l) => l.code === code);
  const current = statusOf(site.locale.code);
  const others = site.locales.filter((l) => l.code !== site.locale.code);
  return (
    // A click inside keeps the menu open, also when the button clicked is gone by the time the
    // page's outside-click handler looks (Download turns into the progress bar).
    <div className="offline-panel" onClick={(event) => event.stopPropagation()}>
      <h2>{strings.menu}</h2>
      <p>{format(strings.intro, { language: site.locale.label })}</p>
      {current ? (
        <LocaleControls status={current} snapshot={snapshot} site={site} size={size} />
      ) : (
        <p role="status">{strings.preparing}</p>
      )}
      {others.length > 0 && current && (
        <div className="offline-others">
          <h3>{strings.otherLanguages}</h3>
          <ul>
            {others.map((locale) => {
              const status = statusOf(locale.code);
              return (
                <li key={locale.code}>
                  <span lang={locale.htmlLang}>{locale.label}</span>
                  {status && <LocaleControls status={status} snapshot={snapshot} site={site} size={size} compact />}
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </div>
  );
}

function LocaleControls({
  status,
  snapshot,
  site,
  size,
  compact = false,
}: {
  status: LocaleStatus;
  snapshot: OfflineSnapshot;
  site: SiteData;
  size: (bytes: number) => string;
  compact?: boolean;
}) {
  const strings = site.strings.offline;
  const locale = status.code;
  const progress = snapshot.downloads[locale];
  const notice = snapshot.notices[locale];
  const label = site.locales.find((l) => l.code === locale)?.label ?? locale;
  const noticeText =
    notice?.kind === 'failed'
      ? notice.reason === 'network'
        ? strings.failedNetwork
        : notice.reason === 'space'
          ? strings.failedSpace
          : notice.reason === 'cancelled'
            ? ''
            : format(strings.failedServer, { detail: notice.detail ?? '' })
      : notice?.kind === 'removed'
        ? strings.removed
        : '';
  let body;
  if (progress) {
    body = (
      <>
        <progress
          max={progress.total || 1}
          value={progress.done}
          aria-label={compact ? `${strings.progressLabel}: ${label}` : strings.progressLabel}
        />
        <span className="offline-size">
          {format(strings.progress, { done: size(progress.done), total: size(progress.total) })}
        </span>
        <span className="offline-actions">
          <button type="button" className="button button-secondary" onClick={() => offline.cancel(locale)}>
            {strings.cancel}
          </button>
        </span>
      </>
    );
  } else if (status.saved && !status.incomplete) {
    body = (
      <>
        <span className="offline-saved">{format(strings.saved, { size: size(status.bytes) })}</span>
        <span className="offline-actions">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => offline.remove(locale)}
            aria-label={compact ? `${strings.remove}: ${label}` : undefined}
          >
            {strings.remove}
          </button>
        </span>
      </>
    );
  } else {
    const sizes = format(strings.downloadSize, { size: size(status.missingSent), stored: size(status.bytes) });
    body = (
      <>
        {status.incomplete ? (
          <span>{format(strings.incomplete, { size: size(status.missingBytes) })}</span>
        ) : (
          compact && <span className="offline-size">{strings.notSaved}</span>
        )}
        <span className="offline-actions">
          <button
            type="button"
            className="button button-primary"
            onClick={() => offline.save(locale)}
            aria-label={compact ? `${strings.download}: ${label}` : undefined}
          >
            {status.incomplete ? strings.resume : strings.download}
          </button>
          {status.incomplete && (
            <button type="button" className="button button-secondary" onClick={() => offline.remove(locale)}>
              {strings.remove}
            </button>
          )}
        </span>
        {!compact && <span className="offline-size">{sizes}</span>}
      </>
    );
  }
  return (
    <div
      className="offline-locale"
      data-locale={locale}
      data-state={progress ? 'downloading' : status.saved ? (status.incomplete ? 'incomplete' : 'saved') : 'none'}
    >
      {body}
      <p className={notice?.kind === 'failed' ? 'offline-failed' : 'offline-notice'} role="status">
        {noticeText}
      </p>
    </div>
  );
}
