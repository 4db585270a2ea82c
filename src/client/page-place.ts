/**
 * Where a page starts, taken up by the first-load script (boot.ts) as soon as the document is
 * parsed, long before the app hydrates: the place the reader had on the other language's page
 * (carried across the switch in session storage), else, on a reload or a return to this history
 * entry, where they were on it. The router (router.ts) keeps both up to date once it runs.
 */
import { normalizePath } from './route-modules.js';
import { scrollToChapterPlace, scrollToSpot, type ChapterPlace, type ScrollSpot } from './scroll-spot.js';

/** Our part of history.state: the entry's key and where the reader was on it, as last saved. */
export interface HistoryState {
  key?: string;
  scroll?: ScrollSpot;
}

export const stateOf = (state: unknown) => (state ?? {}) as HistoryState;

/**
 * The reader's place, carried across a language switch (a page load) in session storage: the page
 * it is for, and when it was saved, so that a place the browser never used is not taken up later.
 */
const PLACE_KEY = 'pybook-place';
interface CarriedPlace {
  path: string;
  at: number;
  place: ChapterPlace;
}

/** False when session storage is unavailable (disabled, or full). */
export function carryPlace(path: string, place: ChapterPlace): boolean {
  try {
    sessionStorage.setItem(PLACE_KEY, JSON.stringify({ path, at: Date.now(), place } satisfies CarriedPlace));
    return true;
  } catch {
    return false;
  }
}

/** The place carried to this page, once (it is removed as it is read). */
function takeCarriedPlace(): ChapterPlace | undefined {
  try {
    const raw = sessionStorage.getItem(PLACE_KEY);
    if (!raw) return undefined;
    sessionStorage.removeItem(PLACE_KEY);
    const carried = JSON.parse(raw) as CarriedPlace;
    const fresh = Date.now() - carried.at < 60_000;
    return fresh && carried.path === normalizePath(location.pathname) ? carried.place : undefined;
  } catch {
    return undefined;
  }
}

let arrivedAtPlace = false;

/** Whether the page started at a place carried from the other language (the router saves it as the entry's spot). */
export const startedAtPlace = () => arrivedAtPlace;

/**
 * Scrolls the page to where it starts: a carried place, else the entry's saved spot (a reload:
 * the router has made scroll restoration manual, so the browser does not). Once, at first load.
 */
export function takeStartingPlace(): void {
  const place = takeCarriedPlace();
  if (place) {
    scrollToChapterPlace(place);
    arrivedAtPlace = true;
    return;
  }
  const spot = stateOf(history.state).scroll;
  if (spot?.y) scrollToSpot(spot);
}
