import type { SiteData } from '../pages/types.js';

let current: SiteData | undefined;

/** The page's site data, for code outside React (content behaviour, lazily loaded modules). */
export const currentSite = (): SiteData | undefined => current;
export const setCurrentSite = (site: SiteData): void => { current = site; };
