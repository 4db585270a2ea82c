import type { SearchHit } from './engine.js';

/** The results of one page: its own result (when the page itself matched) and its sections'. */
export interface ResultGroup {
  /** The page's index in the index file (SearchDocument.g). */
  page: number;
  /** The page's title and URL, from any of its results. */
  title: string;
  url: string;
  breadcrumbs: string[];
  /** The page's own result, shown as the group's heading. */
  own?: SearchHit;
  /** Its sections' results, best first. */
  sections: SearchHit[];
}

/**
 * Results grouped by page, each page where its best result ranks, its sections under it in their
 * own order: a reader sees which chapters answer the query, and where in each.
 */
export function groupByPage(hits: SearchHit[]): ResultGroup[] {
  const groups = new Map<number, ResultGroup>();
  for (const hit of hits) {
    const { g: page, t: title, u: url, b: breadcrumbs } = hit.doc;
    let group = groups.get(page);
    if (!group) groups.set(page, (group = { page, title, url, breadcrumbs, sections: [] }));
    if (hit.doc.s === undefined) group.own = hit;
    else group.sections.push(hit);
  }
  return [...groups.values()];
}

/** The hits in the order a grouped list shows them (each page's own result, then its sections). */
export function inGroupOrder(groups: ResultGroup[]): SearchHit[] {
  return groups.flatMap((group) => (group.own ? [group.own, ...group.sections] : group.sections));
}
