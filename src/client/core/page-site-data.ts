import type { SiteData } from '../../shared/model/page.js';

let loading: Promise<SiteData> | undefined;

/**
 * The locale's site data for code outside React (content behaviour, the example runner): the
 * page names its file, which the head preloads and the entry has fetched, so this comes from the
 * HTTP cache. Kept out of the first load: only lazily loaded chunks import it.
 */
export function pageSiteData(): Promise<SiteData> {
  loading ??= (async () => {
    const { siteDataUrl } = JSON.parse(document.getElementById('__PYBOOK_DATA__')?.textContent ?? '{}') as {
      siteDataUrl?: string;
    };
    if (!siteDataUrl) throw new Error('the page names no site data');
    const response = await fetch(siteDataUrl);
    if (!response.ok) throw new Error(`cannot load the site data ${siteDataUrl}: HTTP ${response.status}`);
    return (await response.json()) as SiteData;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
