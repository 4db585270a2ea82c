import type { LocaleInfo } from '../../shared/model/book.js';
import type { BookConfig } from '../../shared/model/config.js';
import { localize } from '../../shared/model/config.js';
import type { SiteData } from '../../shared/model/page.js';

/** The theme's colours, as the pages' `theme-color` metas give them (render-page.ts). */
export const THEME_COLOR = '#2f64a8';
export const BACKGROUND_COLOR = '#ffffff';

/** Where a locale's manifest is: `manifest.webmanifest` under its URL prefix ('' or 'zh-cn/'). */
export const webManifestFile = (urlPrefix: string) => `${urlPrefix}manifest.webmanifest`;

/**
 * A locale's web app manifest: the book installed from one of its pages opens at that locale's
 * home page, and keeps every page under the base path (both languages) inside the app. Each locale
 * is an app of its own (its `id` is its start URL), named in its language.
 */
export function webManifest(config: BookConfig, locale: LocaleInfo, site: SiteData, icon: string | undefined): string {
  const start = config.basePath + locale.urlPrefix;
  const name = site.title;
  const shortName = config.offline.shortName
    ? localize(config.offline.shortName, locale.code, config.defaultLocale)
    : name;
  const manifest = {
    id: start,
    name,
    short_name: shortName,
    description: site.tagline,
    lang: locale.htmlLang,
    dir: locale.direction,
    start_url: start,
    scope: config.basePath,
    display: 'standalone',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: icon ? [{ src: icon, sizes: 'any', type: 'image/svg+xml', purpose: 'any' }] : [],
  };
  return `${JSON.stringify(manifest, null, 1)}\n`;
}
