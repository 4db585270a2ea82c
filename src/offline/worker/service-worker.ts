/**
 * The book's service worker (`<basePath>sw.js`), bundled by the build with the build's own list of
 * files (OfflineManifest, set on `self.__pybookOffline` by the lines before this code; see
 * node/worker-script.ts). Requests are routed with workbox-routing and served with
 * workbox-strategies; what is kept, and when, is this file's:
 *
 * - Only the files of the list are ever stored, and of those only the bytes of this build: a page
 *   must carry this build's id (its `<meta name="pybook-build">`), another file not named by its
 *   content must have the SHA-1 the build recorded; a file named by its content is what its URL says.
 * - Pages: network first (a few seconds, then the stored copy), so a reader online gets the newest
 *   build; a page of a newer build is shown but not stored (its own worker will be). A page that is
 *   neither online nor stored gets the offline page, which lists what is stored in its language.
 * - Other files of the list: stored as they are first fetched, served from the store after.
 * - Installing: the client and the site's images (`app`), then the locales the reader made
 *   available offline, this build's files of them; a failure leaves the last worker in charge.
 * - Activating: files of the two latest builds are kept (tabs still showing the older one go on
 *   loading what they need), the rest deleted.
 * - A page under the scope that comes from the network without the build id was built without
 *   this feature (a book that turned it off, or `pybook watch`): the worker removes its caches
 *   and unregisters itself.
 */
import { Route, Router } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import type { RouteHandlerCallbackOptions, WorkboxPlugin } from 'workbox-core/types.js';
import {
  APP_GROUP,
  BUILD_META,
  RUNTIME_GROUP,
  cacheKeyOf,
  cacheNamesOf,
  type DownloadProgress,
  type FailureReason,
  type FromWorker,
  type LocaleStatus,
  type OfflineFile,
  type OfflineManifest,
  type ToWorker,
  type WorkerStatus,
} from '../shared/offline-data.js';
import { offlinePageHtml } from '../shared/offline-page.js';

declare const self: ServiceWorkerGlobalScope & { __pybookOffline: OfflineManifest };

const data = self.__pybookOffline;
const origin = self.location.origin;
const names = cacheNamesOf(data.scope);
/** Seconds a page waits for the network before the stored copy is shown. */
const NETWORK_TIMEOUT_S = 4;
/** Downloads at once while storing a pack (a browser opens six connections to a server). */
const CONCURRENCY = 4;

const groupOf = (file: OfflineFile) => data.groups[file.g];
const fileByUrl = new Map<string, OfflineFile>();
const pageByPath = new Map<string, OfflineFile>();
for (const file of data.files) {
  fileByUrl.set(origin + file.u, file);
  if (file.t !== undefined) pageByPath.set(file.u, file);
}
const keyOf = (file: OfflineFile) => cacheKeyOf(origin, file);

/** The page a navigation asks for: its route, also as `x`, `x.html` or `x/index.html`. */
function pageFor(url: URL): OfflineFile | undefined {
  if (url.origin !== origin) return undefined;
  let path = url.pathname;
  const exact = pageByPath.get(path);
  if (exact) return exact;
  if (path.endsWith('/index.html')) path = path.slice(0, -'index.html'.length);
  else if (path.endsWith('.html')) path = `${path.slice(0, -'.html'.length)}/`;
  else if (!path.endsWith('/')) path += '/';
  return pageByPath.get(path);
}

/** The listed file a request is for: the page of a top-level navigation, else the file of its exact URL. */
function fileFor(request: Request): OfflineFile | undefined {
  if (request.mode === 'navigate' && request.destination === 'document') return pageFor(new URL(request.url));
  return fileByUrl.get(request.url);
}

/** The locales whose pack holds a file: its own for a locale's file, every one for `app` and `runtime`. */
const packOf = (locale: string) => {
  const groups = new Set([APP_GROUP, RUNTIME_GROUP, locale]);
  return data.files.filter((file) => groups.has(groupOf(file)));
};

async function sha1Hex(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

const buildMarker = `<meta name="${BUILD_META}" content="${data.build}">`;

/** Whether a response holds this build's bytes of `file` (see the top of this file). */
async function isThisBuilds(file: OfflineFile, response: Response): Promise<boolean> {
  if (response.status !== 200 || response.type !== 'basic') return false;
  if (file.t !== undefined) return (await response.clone().text()).includes(buildMarker);
  if (file.r !== undefined) return (await sha1Hex(await response.clone().arrayBuffer())).startsWith(file.r);
  return true;
}

/** Keys listed files by their revision, and stores only this build's bytes of them. */
const listedFiles: WorkboxPlugin = {
  cacheKeyWillBeUsed: ({ request }) => {
    const file = fileFor(request);
    return Promise.resolve(file ? keyOf(file) : request);
  },
  cacheWillUpdate: async ({ request, response }) => {
    const file = fileFor(request);
    return file && (await isThisBuilds(file, response)) ? response : null;
  },
};

/** Hears a page from the network that was built without the feature (see retire). */
const builtWithout: WorkboxPlugin = {
  fetchDidSucceed: async ({ request, response }) => {
    if (
      request.mode === 'navigate' &&
      response.status === 200 &&
      response.type === 'basic' &&
      (response.headers.get('content-type') ?? '').startsWith('text/html')
    ) {
      const text = await response.clone().text();
      if (!text.includes(`<meta name="${BUILD_META}"`)) void retire();
    }
    return response;
  },
};

const pages = new NetworkFirst({
  cacheName: names.files,
  networkTimeoutSeconds: NETWORK_TIMEOUT_S,
  plugins: [listedFiles, builtWithout],
});
const files = new CacheFirst({ cacheName: names.files, plugins: [listedFiles] });

async function storedKeys(): Promise<Set<string>> {
  const cache = await caches.open(names.files);
  return new Set((await cache.keys()).map((request) => request.url));
}

/** The page shown for a page that is neither online nor stored: what is stored in its language. */
async function offlinePage(url: URL): Promise<Response> {
  const relative = url.pathname.startsWith(data.scope) ? url.pathname.slice(data.scope.length) : '';
  const locale =
    data.locales.find((l) => l.home !== data.scope && relative.startsWith(l.home.slice(data.scope.length))) ??
    data.locales[0];
  const stored = await storedKeys();
  const isStored = (path: string) => {
    const page = pageByPath.get(path);
    return page !== undefined && stored.has(keyOf(page));
  };
  const saved = data.files
    .filter((file) => file.t !== undefined && groupOf(file) === locale.code && stored.has(keyOf(file)))
    .map((file) => ({ title: file.t!, href: file.u }));
  const html = offlinePageHtml({
    strings: data.strings[locale.code] ?? data.strings[data.locales[0].code],
    htmlLang: locale.htmlLang,
    stylesheet: data.stylesheet,
    home: isStored(locale.home) ? locale.home : undefined,
    pages: saved,
    others: data.locales
      .filter((other) => other.code !== locale.code && isStored(other.home))
      .map((other) => ({ label: other.label, htmlLang: other.htmlLang, href: other.home })),
  });
  return new Response(html, {
    status: 503,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self'",
      'cache-control': 'no-store',
    },
  });
}

async function networkOrOffline({ request, url }: RouteHandlerCallbackOptions): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    if (request.mode === 'navigate') return offlinePage(url);
    throw error;
  }
}

const inScope = (url: URL) => url.origin === origin && url.pathname.startsWith(data.scope);

const router = new Router();
// A page of the book: network first, then the stored copy, then the offline page.
router.registerRoute(
  new Route(
    ({ request, url }) => request.mode === 'navigate' && request.destination === 'document' && inScope(url),
    async (options) => {
      const { request, event, url } = options;
      if (!pageFor(url)) return networkOrOffline(options);
      try {
        return await pages.handle({ request, event });
      } catch {
        return offlinePage(url);
      }
    },
  ),
);
// Any other file of this build's list (the runner's sandbox launcher, an iframe, among them).
router.registerRoute(
  new Route(
    ({ request }) => fileByUrl.has(request.url),
    ({ request, event }) => files.handle({ request, event }),
  ),
);
// Anything else under the scope: a file named by its content that an older build stored (a tab
// still showing that build needs it), else the network.
router.setDefaultHandler(async (options) => {
  const stored = await (await caches.open(names.files)).match(options.request);
  return stored ?? networkOrOffline(options);
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || !inScope(url) || url.pathname === data.scope + 'sw.js') return;
  const response = router.handleRequest({ event, request: event.request });
  if (response) event.respondWith(response);
});

// ---------------------------------------------------------------------------------------------------
// What the reader chose, kept in the meta cache as JSON.

interface State {
  /** Locales the reader made available offline. */
  saved: string[];
  /** The build of the active worker, and the one before it (whose files are still kept). */
  current?: string;
  previous?: string;
}

const STATE_KEY = `${origin}${data.scope}__pybook/state.json`;
const buildKeysKey = (build: string) => `${origin}${data.scope}__pybook/build-${build}.json`;

async function readJson<T>(key: string): Promise<T | undefined> {
  const response = await (await caches.open(names.meta)).match(key);
  return response ? ((await response.json()) as T) : undefined;
}

async function writeJson(key: string, value: unknown): Promise<void> {
  await (
    await caches.open(names.meta)
  ).put(key, new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } }));
}

const readState = async (): Promise<State> => ({ saved: [], ...(await readJson<State>(STATE_KEY)) });
/** One change of the state at a time (a save and a remove may overlap). */
let stateChange: Promise<unknown> = Promise.resolve();
function changeState(change: (state: State) => void): Promise<void> {
  const next = stateChange.then(async () => {
    const state = await readState();
    change(state);
    await writeJson(STATE_KEY, state);
  });
  stateChange = next.catch(() => {});
  return next;
}

// ---------------------------------------------------------------------------------------------------
// Storing files: a pack (a locale, with the app and the runtime), or what a page has loaded.

class StoreError extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(message);
  }
}

/** Fetches one file and stores it under its key, if the bytes are this build's; reports bytes as they arrive. */
async function storeFile(cache: Cache, file: OfflineFile, signal?: AbortSignal, onBytes?: (n: number) => void) {
  let response: Response;
  try {
    // A file not named by its content is asked for again: the HTTP cache may hold an older build's.
    response = await fetch(origin + file.u, {
      signal,
      cache: file.r === undefined ? 'default' : 'no-cache',
      credentials: 'same-origin',
    });
  } catch (error) {
    if (signal?.aborted) throw new StoreError('cancelled', 'cancelled');
    throw new StoreError('network', `${file.u}: ${(error as Error).message}`);
  }
  if (!response.ok || !response.body) throw new StoreError('server', `${file.u}: HTTP ${response.status}`);
  const chunks: Uint8Array[] = [];
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      onBytes?.(value.byteLength);
    }
  } catch (error) {
    if (signal?.aborted) throw new StoreError('cancelled', 'cancelled');
    throw new StoreError('network', `${file.u}: ${(error as Error).message}`);
  }
  // The body as the page would read it (decoded): the headers that described the transfer go.
  const stored = new Response(new Blob(chunks as BlobPart[]), {
    status: 200,
    headers: { 'content-type': response.headers.get('content-type') ?? 'application/octet-stream' },
  });
  const copy = stored.clone();
  const ok =
    file.t !== undefined
      ? (await copy.text()).includes(buildMarker)
      : file.r === undefined || (await sha1Hex(await copy.arrayBuffer())).startsWith(file.r);
  if (!ok) throw new StoreError('server', `${file.u}: the site was updated while it was being saved`);
  try {
    await cache.put(keyOf(file), stored);
  } catch (error) {
    const quota = error instanceof DOMException && error.name === 'QuotaExceededError';
    throw new StoreError(quota ? 'space' : 'server', `${file.u}: ${(error as Error).message}`);
  }
}

/** Stores `wanted` files not stored yet, CONCURRENCY at a time; the first failure ends it. */
async function storeAll(
  wanted: OfflineFile[],
  options: { signal?: AbortSignal; onBytes?: (n: number) => void; checkSpace?: boolean } = {},
): Promise<void> {
  const cache = await caches.open(names.files);
  const stored = await storedKeys();
  const missing = wanted.filter((file) => !stored.has(keyOf(file)));
  if (options.checkSpace) {
    const need = missing.reduce((sum, file) => sum + file.b, 0);
    const estimate = await self.navigator.storage?.estimate?.();
    if (estimate?.quota !== undefined && estimate.usage !== undefined && estimate.quota - estimate.usage < need)
      throw new StoreError('space', `${need} bytes needed, ${estimate.quota - estimate.usage} available`);
  }
  let next = 0;
  let failure: Error | undefined;
  const worker = async () => {
    while (failure === undefined && next < missing.length) {
      const file = missing[next++];
      try {
        await storeFile(cache, file, options.signal, options.onBytes);
      } catch (error) {
        failure ??= error instanceof Error ? error : new StoreError('server', String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, missing.length) }, worker));
  if (failure !== undefined) throw failure;
}

async function broadcast(message: FromWorker): Promise<void> {
  for (const client of await self.clients.matchAll({ type: 'window', includeUncontrolled: true }))
    client.postMessage(message);
}

interface Download {
  progress: DownloadProgress;
  abort: AbortController;
  done: Promise<void>;
}
const downloads = new Map<string, Download>();

/** Makes a locale available offline (or finishes doing so), telling every page how it goes. */
function save(locale: string): Promise<void> {
  const running = downloads.get(locale);
  if (running) return running.done;
  const wanted = packOf(locale);
  const abort = new AbortController();
  const progress: DownloadProgress = { locale, done: 0, total: 0 };
  let reported = 0;
  const done = (async () => {
    await changeState((state) => {
      if (!state.saved.includes(locale)) state.saved.push(locale);
    });
    const stored = await storedKeys();
    progress.total = wanted.filter((file) => !stored.has(keyOf(file))).reduce((sum, file) => sum + file.b, 0);
    await broadcast({ type: 'offline-progress', progress: { ...progress } });
    try {
      await storeAll(wanted, {
        signal: abort.signal,
        checkSpace: true,
        onBytes: (n) => {
          progress.done += n;
          const now = Date.now();
          if (now - reported < 150) return;
          reported = now;
          void broadcast({
            type: 'offline-progress',
            progress: { ...progress, done: Math.min(progress.done, progress.total) },
          });
        },
      });
      await broadcast({ type: 'offline-progress', progress: { ...progress, done: progress.total } });
      await broadcast({ type: 'offline-saved', locale });
    } catch (error) {
      const reason = error instanceof StoreError ? error.reason : 'server';
      // A download stopped before it began to store leaves nothing to call saved.
      if (reason === 'cancelled' || reason === 'space') await removeLocale(locale, false);
      await broadcast({ type: 'offline-failed', locale, reason, detail: (error as Error).message });
    }
  })().finally(() => downloads.delete(locale));
  downloads.set(locale, { progress, abort, done });
  return done;
}

/** Deletes a locale's files, of every build, and Pyodide and the rest of `runtime` once no locale is saved. */
async function removeLocale(locale: string, tell = true): Promise<void> {
  downloads.get(locale)?.abort.abort();
  let remaining: string[] = [];
  await changeState((state) => {
    state.saved = state.saved.filter((code) => code !== locale);
    remaining = state.saved;
  });
  const doomed = new Set(
    data.files
      .filter((file) => groupOf(file) === locale || (remaining.length === 0 && groupOf(file) === RUNTIME_GROUP))
      .map((file) => origin + file.u),
  );
  const cache = await caches.open(names.files);
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    url.searchParams.delete('__pybook');
    if (doomed.has(url.href)) await cache.delete(request);
  }
  if (tell) await broadcast({ type: 'offline-removed', locale });
}

async function status(): Promise<WorkerStatus> {
  const [stored, state] = await Promise.all([storedKeys(), readState()]);
  const locales = data.locales.map((locale): LocaleStatus => {
    const wanted = packOf(locale.code);
    const missing = wanted.filter((file) => !stored.has(keyOf(file)));
    const saved = state.saved.includes(locale.code);
    return {
      code: locale.code,
      saved,
      incomplete: saved && missing.length > 0,
      bytes: wanted.reduce((sum, file) => sum + file.b, 0),
      missingBytes: missing.reduce((sum, file) => sum + file.b, 0),
      missingSent: missing.reduce((sum, file) => sum + (file.s ?? file.b), 0),
      pages: wanted.filter((file) => file.t !== undefined).length,
    };
  });
  return { build: data.build, locales, downloading: [...downloads.values()].map((d) => ({ ...d.progress })) };
}

// ---------------------------------------------------------------------------------------------------
// The worker's life.

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      await storeAll(data.files.filter((file) => groupOf(file) === APP_GROUP));
      // The locales the reader made available offline, in this build's version: a failure to reach
      // the network fails the install (the browser tries again later, the last worker stays);
      // anything else (no space) leaves them incomplete, which the page says.
      for (const locale of (await readState()).saved) {
        try {
          await storeAll(packOf(locale));
        } catch (error) {
          if (!(error instanceof StoreError) || error.reason === 'network') throw error;
        }
      }
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      let keep: string[] = [];
      await changeState((state) => {
        if (state.current !== data.build) {
          state.previous = state.current;
          state.current = data.build;
        }
        keep = [state.current, state.previous].filter((b): b is string => b !== undefined);
      });
      await writeJson(buildKeysKey(data.build), data.files.map(keyOf));
      const kept = new Set<string>();
      for (const build of keep) for (const key of (await readJson<string[]>(buildKeysKey(build))) ?? []) kept.add(key);
      const cache = await caches.open(names.files);
      for (const request of await cache.keys()) if (!kept.has(request.url)) await cache.delete(request);
      const meta = await caches.open(names.meta);
      for (const request of await meta.keys())
        if (request.url.includes('/__pybook/build-') && !keep.some((b) => request.url === buildKeysKey(b)))
          await meta.delete(request);
      for (const name of await caches.keys())
        if (name.startsWith(names.prefix) && name !== names.files && name !== names.meta) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

let retiring = false;
/** The site no longer has the feature: the book's caches go, and the worker with them. */
async function retire(): Promise<void> {
  if (retiring) return;
  retiring = true;
  for (const name of await caches.keys()) if (name.startsWith(names.prefix)) await caches.delete(name);
  await self.registration.unregister();
}

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const message = event.data as ToWorker | null;
  const reply = (value: unknown) => event.ports[0]?.postMessage(value);
  if (!message || typeof message !== 'object') return;
  switch (message.type) {
    case 'SKIP_WAITING':
      void self.skipWaiting();
      break;
    case 'build':
      reply({ build: data.build });
      break;
    case 'status':
      event.waitUntil(status().then(reply));
      break;
    case 'save':
      if (data.locales.some((l) => l.code === message.locale)) event.waitUntil(save(message.locale));
      break;
    case 'cancel':
      downloads.get(message.locale)?.abort.abort();
      break;
    case 'remove':
      if (data.locales.some((l) => l.code === message.locale)) event.waitUntil(removeLocale(message.locale));
      break;
    case 'cache-loaded': {
      // What a page loaded before this worker controlled it (its document, its client): stored
      // like anything fetched through the worker, if it is on the list.
      const listed = (Array.isArray(message.urls) ? message.urls : [])
        .map((url) => (typeof url === 'string' ? (fileByUrl.get(url) ?? pageFor(new URL(url, origin))) : undefined))
        .filter((file): file is OfflineFile => file !== undefined);
      event.waitUntil(storeAll(listed).catch(() => {}));
      break;
    }
  }
});
