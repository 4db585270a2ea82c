import { createContext, useContext } from 'react';
import type { SiteData } from '../../shared/model/page.js';

export const SiteContext = createContext<SiteData | null>(null);

export function useSite(): SiteData {
  const site = useContext(SiteContext);
  if (!site) throw new Error('Invariant failed');
  return site;
}
