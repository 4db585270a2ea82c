/**
 * The script `pybook watch` adds to every page (bundled by src/watch/live-reload.ts, inlined at the
 * end of the body). Its script element says where the event stream is and which version of the
 * page this is (data-events, data-fingerprint); the stream then says what changed.
 *
 * When only one page changed, the event carries its page module, which the client keeps for a
 * later navigation there; a tab showing that page shows it in place (scroll kept), without
 * fetching anything:
 * - the article is patched: only its top-level blocks that differ from the new HTML are replaced
 *   (re-creating the whole article costs the browser several times more: parsing, style and
 *   layout of every block, every save);
 * - if nothing else of the page changed (its model: title, table of contents, reading time…),
 *   that is all (React's copy of the article HTML is then older than the DOM, which is harmless:
 *   React writes the article only when it is given different HTML, and every later version
 *   patches the DOM first);
 * - otherwise the client renders the new page model (and the article again) in place.
 * When several pages changed (a title in the sidebar, say) or the client is not running, a tab
 * showing one of them reloads, keeping the scroll position. A build error shows as an overlay,
 * removed once the chapter is fixed. Error text is inserted with textContent, never as HTML; page
 * HTML comes from the build, as in the page itself.
 */
import type { RouteModule } from '../../client/route-modules.js';
import type { Router } from '../../client/router.js';
import type { LiveEvent } from '../shared/live-events.js';

/** Where a reload keeps the scroll position for the page that comes back. */
const SCROLL_KEY = 'pybook-watch-scroll';
const OVERLAY_ID = 'pybook-error-overlay';

/** As the stream sends it: the route module parsed with the event. */
type ReloadEvent = Omit<Extract<LiveEvent, { type: 'reload' }>, 'module'> & { module?: RouteModule };
type MovedEvent = Extract<LiveEvent, { type: 'moved' }>;
type ErrorEvent = Extract<LiveEvent, { type: 'build-error' }>;

function restoreScroll(): void {
  try {
    const saved = sessionStorage.getItem(SCROLL_KEY);
    if (saved === null) return;
    sessionStorage.removeItem(SCROLL_KEY);
    const y = Number(saved);
    addEventListener('load', () => scrollTo(0, y));
    scrollTo(0, y);
  } catch {
    // Storage can be unavailable (a private window's policy): the reload then starts at the top.
  }
}

function clearOverlay(): void {
  document.getElementById(OVERLAY_ID)?.remove();
}

function showBuildError(message: string): void {
  clearOverlay();
  const overlay = document.createElement('div');
  overlay.id = OVERLAY_ID;
  overlay.setAttribute('role', 'alert');
  overlay.style.cssText =
    'position:fixed;inset:0;z-index:9999;background:rgba(20,24,33,.94);color:#ffb4b4;padding:2rem;overflow:auto;font:14px/1.5 ui-monospace,monospace';
  const heading = document.createElement('h2');
  heading.textContent = 'pybook: the build failed';
  heading.style.color = '#fff';
  const text = document.createElement('pre');
  text.textContent = message;
  text.style.whiteSpace = 'pre-wrap';
  overlay.append(heading, text);
  document.body.appendChild(overlay);
}

/**
 * Replaces only the article's top-level nodes that differ from `html` (the common head and tail
 * stay). False when the page has no article to patch.
 */
function patchArticle(html: string): boolean {
  const article = document.querySelector('.markdown, .home-sections');
  if (!article) return false;
  const template = document.createElement('template');
  template.innerHTML = html;
  const next = [...template.content.childNodes];
  const current = [...article.childNodes];
  let head = 0;
  while (head < current.length && head < next.length && current[head].isEqualNode(next[head])) head++;
  let tail = 0;
  while (
    tail < current.length - head &&
    tail < next.length - head &&
    current[current.length - 1 - tail].isEqualNode(next[next.length - 1 - tail])
  )
    tail++;
  const before = current[current.length - tail] ?? null;
  for (const node of current.slice(head, current.length - tail)) node.remove();
  for (const node of next.slice(head, next.length - tail)) article.insertBefore(node, before);
  return true;
}

/** The page models this tab has shown, by route, as JSON: a change of the model needs a render. */
let shownModels: Map<string, string> | undefined;

function shownModelsOf(): Map<string, string> {
  if (shownModels) return shownModels;
  shownModels = new Map();
  try {
    const data = JSON.parse(document.getElementById('__PYBOOK_DATA__')?.textContent ?? '') as {
      page: RouteModule['page'];
    };
    shownModels.set(data.page.route, JSON.stringify(data.page));
  } catch {
    // No page data (an error page): every model counts as new.
  }
  return shownModels;
}

function onReload(event: ReloadEvent): void {
  const path = location.pathname.replace(/index\.html$/, '');
  const here = event.routes.includes(path);
  const refresh = (window as Window & { __pybookRefresh?: Router['refresh'] }).__pybookRefresh;
  clearOverlay();
  const reloadKeepingPlace = () => {
    if (!here) return;
    try {
      sessionStorage.setItem(SCROLL_KEY, String(scrollY));
    } catch {
      // Reloaded at the top instead.
    }
    location.reload();
  };
  const module = event.module;
  if (!module || !refresh) return reloadKeepingPlace();
  const models = shownModelsOf();
  const model = JSON.stringify(module.page);
  const sameModel = models.get(module.page.route) === model;
  models.set(module.page.route, model);
  let patched = false;
  try {
    patched = here && patchArticle(module.html);
  } catch {
    // Rendered whole below.
  }
  if (here) document.title = module.page.documentTitle;
  if (patched && sameModel) {
    // Only kept for a later navigation there.
    refresh(module).catch(() => {});
    return;
  }
  refresh(module, true).then((shown) => {
    if (!shown) reloadKeepingPlace();
  }, reloadKeepingPlace);
}

/** The base path changed: the same page under the new one, once the restarted server answers there. */
function onMoved(event: MovedEvent, stream: EventSource): void {
  const path = location.pathname;
  const target =
    (path.startsWith(event.from) ? event.to + path.slice(event.from.length) : event.to) +
    location.search +
    location.hash;
  stream.close();
  const attempt = (tries: number) => {
    const later = () => setTimeout(() => attempt(tries + 1), 200);
    fetch(target, { method: 'HEAD', cache: 'no-store' }).then((response) => {
      if (response.ok || tries > 50) location.replace(target);
      else later();
    }, later);
  };
  attempt(0);
}

/**
 * Unregisters a service worker left over under the base path (from a `pybook serve` of the same
 * address, see src/offline/): it would show pages the next save changes. This page came from watch
 * mode's server (the worker asks the network first for pages), and the next one is not the worker's.
 */
function unregisterLeftoverWorkers(basePath: string): void {
  navigator.serviceWorker
    ?.getRegistrations()
    .then((registrations) => {
      for (const registration of registrations)
        if (new URL(registration.scope).pathname.startsWith(basePath)) void registration.unregister();
    })
    .catch(() => {});
}

function start(script: HTMLOrSVGScriptElement | null): void {
  if (script?.dataset.base) unregisterLeftoverWorkers(script.dataset.base);
  restoreScroll();
  const events = script?.dataset.events;
  if (!events) return;
  const stream = new EventSource(
    `${events}?page=${encodeURIComponent(location.pathname)}&fingerprint=${script.dataset.fingerprint ?? ''}`,
  );
  const read = <T>(event: Event) => JSON.parse((event as MessageEvent<string>).data) as T;
  stream.addEventListener('reload', (event) => onReload(read<ReloadEvent>(event)));
  stream.addEventListener('clear', clearOverlay);
  stream.addEventListener('moved', (event) => onMoved(read<MovedEvent>(event), stream));
  stream.addEventListener('build-error', (event) => showBuildError(read<ErrorEvent>(event).message));
}

start(document.currentScript);
