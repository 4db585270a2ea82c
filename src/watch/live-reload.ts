import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bundleWorker } from '../bundler/bundle-workers.js';
import type { DiskCache } from '../cache/disk-cache.js';
import type { BodyScript } from '../generator/render-page.js';
import type { LiveEvent } from './shared/live-events.js';

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

export type { LiveEvent };

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
 * The code of the script watch mode adds to every page (src/watch/client/live-reload.ts, bundled):
 * the same on every page, so the page's policy allows it by its hash.
 */
export async function liveReloadCode(disk?: DiskCache): Promise<string> {
  return (await bundleWorker('live-reload', disk)).code;
}

/**
 * The live-reload script of the pages under `basePath`: its element says where the event stream is
 * and which version of the page it is part of (the server puts the page's fingerprint in place of
 * the placeholder, see pageFingerprint).
 */
export function liveReloadScript(code: string, basePath: string): BodyScript {
  return {
    code,
    data: { base: basePath, events: basePath + EVENTS_PATH, fingerprint: PAGE_FINGERPRINT_PLACEHOLDER },
  };
}
