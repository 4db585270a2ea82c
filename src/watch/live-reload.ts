import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Path (under the base path) of the server-sent-events stream that watch mode pushes to. */
export const EVENTS_PATH = '__pybook/events';

/**
 * Stands in the live-reload script for the fingerprint of the page it is part of; watch mode's
 * server replaces it in every HTML response (see pageFingerprint).
 */
export const PAGE_FINGERPRINT_PLACEHOLDER = '__PYBOOK_PAGE_FINGERPRINT__';

/** Fingerprint of a page's HTML as built (placeholder still in place), short and URL-safe. */
export function pageFingerprint(html: string): string {
  return createHash('sha1').update(html).digest('hex').slice(0, 16);
}

export type LiveEvent =
  /**
   * Pages changed. `module`, when one page changed, is its route module's JSON (`{"page":…,"html":…}`,
   * see routeModuleJson): the tabs show it in place without fetching anything.
   */
  | { type: 'reload'; routes: string[]; module?: string }
  | { type: 'build-error'; message: string }
  | { type: 'clear' }
  /** The base path changed: tabs go to the same page under the new one, once the restarted server answers there. */
  | { type: 'moved'; from: string; to: string };

/**
 * Keeps the open event streams of every browser tab and broadcasts build results to them.
 *
 * A tab that (re)loads while a rebuild runs connects only after that rebuild has been announced
 * (the rebuild holds the event loop), so it would miss the reload and keep showing old text.
 * Each tab therefore says which page and which version of it it shows (`page`, `fingerprint`
 * query parameters); when `currentFingerprint` reports a different version, it reloads at once.
 */
export class LiveReloadHub {
  private clients = new Set<ServerResponse>();
  private lastError: string | undefined;

  constructor(
    private readonly basePath: string,
    /** Fingerprint of the page currently built for a URL path, or undefined when there is none. */
    private readonly currentFingerprint: (urlPath: string) => string | undefined = () => undefined,
  ) {}

  /** The static server's `handleExtra` hook: answers the event stream, leaves the rest. */
  handle = (req: IncomingMessage, res: ServerResponse): boolean => {
    // Only origin-form URLs of the stream itself: anything else (absolute-form, malformed) goes to
    // the static server, which validates it and answers 400 where it must.
    const raw = req.url ?? '';
    if (!raw.startsWith(`${this.basePath}${EVENTS_PATH}`)) return false;
    let url: URL;
    try {
      url = new URL(raw, 'http://localhost');
    } catch {
      return false;
    }
    if (url.pathname !== `${this.basePath}${EVENTS_PATH}`) return false;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    res.write('retry: 500\n\n');
    if (this.lastError !== undefined) {
      res.write(frame({ type: 'build-error', message: this.lastError }));
    } else {
      const page = url.searchParams.get('page');
      const shown = url.searchParams.get('fingerprint');
      const current = page === null ? undefined : this.currentFingerprint(page);
      if (page !== null && current !== undefined && shown !== current)
        res.write(frame({ type: 'reload', routes: [page] }));
    }
    this.clients.add(res);
    req.on('close', () => this.clients.delete(res));
    return true;
  };

  send(event: LiveEvent): void {
    if (event.type === 'build-error') this.lastError = event.message;
    else this.lastError = undefined;
    const data = frame(event);
    for (const client of this.clients) client.write(data);
  }

  close(): void {
    for (const client of this.clients) client.end();
    this.clients.clear();
  }
}

/** The JSON of a route module's source (`export default {…};`), or undefined if it is not one. */
export function routeModuleJson(source: string): string | undefined {
  const prefix = 'export default ';
  const json = source.endsWith(';\n') && source.startsWith(prefix) ? source.slice(prefix.length, -2) : undefined;
  // One event line: JSON.stringify never writes a raw line break, but the source is checked, not trusted.
  return json !== undefined && !/[\r\n]/.test(json) ? json : undefined;
}

function frame(event: LiveEvent): string {
  if (event.type === 'reload' && event.module !== undefined) {
    // The module is JSON already: spliced in, not encoded again as a string.
    const { module, ...rest } = event;
    return `event: reload\ndata: ${JSON.stringify(rest).slice(0, -1)},"module":${module}}\n\n`;
  }
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * The script watch mode adds to every page. When only one page changed, the event carries its
 * page module, which the client keeps for a later navigation there; a tab showing that page
 * shows it in place (scroll kept), without fetching anything:
 * - the article is patched: only its top-level blocks that differ from the new HTML are replaced
 *   (re-creating the whole article costs the browser several times more: parsing, style and
 *   layout of every block, every save);
 * - if nothing else of the page changed (its model: title, table of contents, reading time…),
 *   that is all (React's copy of the article HTML is then older than the DOM, which is harmless:
 *   React writes the article only when it is given different HTML, and every later version
 *   patches the DOM first);
 * - otherwise the client renders the new page model (and the article again) in place.
 * When several pages changed (a title in the sidebar, say) or the client is not running, a tab
 * showing one of them reloads, keeping the scroll position. It shows a build error as an
 * overlay and removes it once the chapter is fixed. Error text is inserted with textContent,
 * never as HTML; page HTML comes from the build, as in the page itself.
 */
export function liveReloadScript(basePath: string): string {
  const source = `(function(){var K='pybook-watch-scroll';try{var s=sessionStorage.getItem(K);if(s){sessionStorage.removeItem(K);var y=+s;addEventListener('load',function(){scrollTo(0,y)});scrollTo(0,y)}}catch(e){}
var es=new EventSource(${JSON.stringify(basePath + EVENTS_PATH)}+'?page='+encodeURIComponent(location.pathname)+'&fingerprint=${PAGE_FINGERPRINT_PLACEHOLDER}');
function clear(){var o=document.getElementById('pybook-error-overlay');if(o)o.remove()}
var shown;
function patch(html){var el=document.querySelector('.markdown, .home-sections');if(!el)return false;var t=document.createElement('template');t.innerHTML=html;
var next=[].slice.call(t.content.childNodes),cur=[].slice.call(el.childNodes),a=0,b=0,i;
while(a<cur.length&&a<next.length&&cur[a].isEqualNode(next[a]))a++;
while(b<cur.length-a&&b<next.length-a&&cur[cur.length-1-b].isEqualNode(next[next.length-1-b]))b++;
var at=cur[cur.length-b]||null;for(i=a;i<cur.length-b;i++)cur[i].remove();for(i=a;i<next.length-b;i++)el.insertBefore(next[i],at);return true}
es.addEventListener('reload',function(ev){var d=JSON.parse(ev.data),p=location.pathname.replace(/index\\.html$/,''),here=d.routes.indexOf(p)>=0,m=d.module,r=window.__pybookRefresh;clear();
function full(){if(!here)return;try{sessionStorage.setItem(K,String(scrollY))}catch(e){}location.reload()}
if(!m||!r)return full();
if(!shown){shown={};try{var b=JSON.parse(document.getElementById('__PYBOOK_DATA__').textContent).page;shown[b.route]=JSON.stringify(b)}catch(e){}}
var page=JSON.stringify(m.page),same=shown[m.page.route]===page,patched=false;shown[m.page.route]=page;try{patched=here&&patch(m.html)}catch(e){}
if(here)document.title=m.page.documentTitle;
if(patched&&same){r(m).catch(function(){});return}
r(m,true).then(function(ok){if(!ok)full()},full)});
es.addEventListener('clear',clear);
es.addEventListener('moved',function(ev){var d=JSON.parse(ev.data),p=location.pathname,u=(p.indexOf(d.from)===0?d.to+p.slice(d.from.length):d.to)+location.search+location.hash;es.close();(function go(n){function later(){setTimeout(function(){go(n+1)},200)}fetch(u,{method:'HEAD',cache:'no-store'}).then(function(r){if(r.ok||n>50)location.replace(u);else later()},later)})(0)});
es.addEventListener('build-error',function(ev){var d=JSON.parse(ev.data);clear();var o=document.createElement('div');o.id='pybook-error-overlay';o.setAttribute('role','alert');o.style.cssText='position:fixed;inset:0;z-index:9999;background:rgba(20,24,33,.94);color:#ffb4b4;padding:2rem;overflow:auto;font:14px/1.5 ui-monospace,monospace';var h=document.createElement('h2');h.textContent='pybook: the build failed';h.style.color='#fff';var pre=document.createElement('pre');pre.textContent=d.message;pre.style.whiteSpace='pre-wrap';o.appendChild(h);o.appendChild(pre);document.body.appendChild(o)});})();`;
  return `<script>${source.replace(/<\//g, '<\\/')}</script>`;
}
