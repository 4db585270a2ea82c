/**
 * The page's side of reading offline, loaded once the page is idle (src/theme/client/layout/OfflineMenu.tsx): registers the
 * book's service worker (workbox-window), hands it what this page loaded before it was in charge,
 * keeps the state the menu shows (what each language takes, what is saved, a download's progress),
 * and says when a newer build is deployed. Nothing here runs before the page is shown.
 */
import { Workbox, messageSW } from 'workbox-window';
import type { SiteData } from '../../shared/model/page.js';
import {
  BUILD_META,
  type DownloadProgress,
  type FailureReason,
  type FromWorker,
  type ToWorker,
  type WorkerStatus,
} from '../shared/offline-data.js';
import { showUpdateNotice } from './update-notice.js';

export interface OfflineSnapshot {
  /** `unsupported`: no service workers here (or they are blocked); `preparing`: until the worker is active. */
  phase: 'unsupported' | 'preparing' | 'ready';
  status?: WorkerStatus;
  downloads: Record<string, DownloadProgress>;
  /** The last thing that happened to each locale, for the menu's live region. */
  notices: Record<string, { kind: 'saved' | 'removed' | 'failed'; reason?: FailureReason; detail?: string }>;
  /** A newer build's worker waits: the page says so and reloads on request. */
  update: boolean;
}

type Listener = () => void;

/** How long Reload waits for the new worker to take over before it reloads anyway (see reload()). */
const RELOAD_WAIT_MS = 1500;

/** Minutes between checks for a newer build while a page stays open. */
const UPDATE_CHECK_MINUTES = 30;

class OfflineController {
  private snapshot: OfflineSnapshot = { phase: 'preparing', downloads: {}, notices: {}, update: false };
  private listeners = new Set<Listener>();
  private workbox?: Workbox;
  private registration?: ServiceWorkerRegistration;
  private started = false;
  private site?: SiteData;
  /** The waiting worker of a newer build, whose taking over the Reload button asks for. */
  private waiting?: ServiceWorker;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): OfflineSnapshot => this.snapshot;

  private set(change: Partial<OfflineSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }

  /** The build this page belongs to (its `<meta name="pybook-build">`). */
  private pageBuild(): string | undefined {
    return document.querySelector<HTMLMetaElement>(`meta[name="${BUILD_META}"]`)?.content;
  }

  /** Registers the worker (once per page). */
  start(site: SiteData): void {
    if (this.started || !site.offline) return;
    this.started = true;
    this.site = site;
    if (!('serviceWorker' in navigator) || !window.isSecureContext) {
      this.set({ phase: 'unsupported' });
      return;
    }
    void this.register(site.offline.worker, site.basePath).catch(() => this.set({ phase: 'unsupported' }));
  }

  private async register(worker: string, scope: string): Promise<void> {
    const workbox = (this.workbox = new Workbox(worker, { scope, updateViaCache: 'none' }));
    workbox.addEventListener('waiting', (event) => void this.onWaiting(event.sw));
    navigator.serviceWorker.addEventListener('message', (event: MessageEvent<FromWorker>) =>
      this.onMessage(event.data),
    );
    const registration = await workbox.register();
    if (!registration) throw new Error('the worker was not registered');
    this.registration = registration;
    const ready = await navigator.serviceWorker.ready;
    // What this page loaded before the worker was in charge of it (its document, its client):
    // stored now, so that the first page a reader opens opens offline too.
    const urls = [location.href, ...performance.getEntriesByType('resource').map((entry) => entry.name)].filter((url) =>
      url.startsWith(location.origin + scope),
    );
    ready.active?.postMessage({ type: 'cache-loaded', urls } satisfies ToWorker);
    await this.refresh();
    this.set({ phase: 'ready' });
    // A newer build is looked for now and then, when the reader comes back to the page, and when the network does.
    const check = () => void registration.update().catch(() => {});
    window.setInterval(check, UPDATE_CHECK_MINUTES * 60_000);
    window.addEventListener('online', check);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') check();
    });
  }

  /** A newer worker is installed: if this page is of its build, it takes over at once; otherwise the reader is told. */
  private async onWaiting(sw: ServiceWorker | undefined): Promise<void> {
    if (!sw) return;
    const { build } = (await messageSW(sw, { type: 'build' } satisfies ToWorker)) as { build?: string };
    if (build !== undefined && build === this.pageBuild()) {
      void this.takeOver(sw);
      return;
    }
    this.waiting = sw;
    this.set({ update: true });
    if (this.site) showUpdateNotice(this.site.strings.offline, () => this.reload());
    installFullNavigation(this.site?.basePath ?? '/');
  }

  /**
   * The reader asked for the new version: its worker is asked to take over, and the page reloads
   * once it has, or after RELOAD_WAIT_MS whatever happened. Chromium activates a new worker only
   * when the old one has no request in flight, which can take minutes (until it gives up waiting);
   * the reload does not need it: pages come from the network first, so the reload is the new
   * build's page with the new build's files.
   */
  reload(): void {
    const waiting = this.waiting;
    if (!waiting || waiting.state === 'redundant') {
      location.reload();
      return;
    }
    let reloaded = false;
    const reload = () => {
      if (reloaded) return;
      reloaded = true;
      location.reload();
    };
    navigator.serviceWorker.addEventListener('controllerchange', reload, { once: true });
    window.setTimeout(reload, RELOAD_WAIT_MS);
    void this.takeOver(waiting);
  }

  /**
   * Asks a waiting worker to take over. Chromium swaps workers once the active one is idle, and
   * hurries it (stops it as soon as its events are done) only if it is running when skipWaiting is
   * called; a stopped one that something wakes later runs its full idle time, and with DevTools
   * attached is never stopped, so the new worker waited five minutes (Chromium 156, under test).
   * So the active worker is asked something first, which makes it run, and then left alone: every
   * later message would be an event that holds the swap back.
   */
  private async takeOver(sw: ServiceWorker): Promise<void> {
    const active = navigator.serviceWorker.controller ?? this.registration?.active;
    if (active && active !== sw) await messageSW(active, { type: 'build' } satisfies ToWorker).catch(() => undefined);
    sw.postMessage({ type: 'SKIP_WAITING' } satisfies ToWorker);
  }

  private onMessage(message: FromWorker): void {
    if (!message || typeof message !== 'object') return;
    if (message.type === 'offline-progress') {
      this.set({ downloads: { ...this.snapshot.downloads, [message.progress.locale]: message.progress } });
      return;
    }
    const { [message.locale]: _done, ...downloads } = this.snapshot.downloads;
    const notice =
      message.type === 'offline-failed'
        ? { kind: 'failed' as const, reason: message.reason, detail: message.detail }
        : { kind: message.type === 'offline-saved' ? ('saved' as const) : ('removed' as const) };
    this.set({ downloads, notices: { ...this.snapshot.notices, [message.locale]: notice } });
    void this.refresh();
  }

  /** Asks the active worker what each language takes and what is saved. */
  async refresh(): Promise<void> {
    const active = this.registration?.active;
    if (!active) return;
    const status = (await messageSW(active, { type: 'status' } satisfies ToWorker)) as WorkerStatus;
    const downloads = { ...this.snapshot.downloads };
    for (const progress of status.downloading) downloads[progress.locale] = progress;
    this.set({ status, downloads });
  }

  private post(message: ToWorker): void {
    this.registration?.active?.postMessage(message);
  }

  save(locale: string): void {
    const { [locale]: _old, ...notices } = this.snapshot.notices;
    this.set({ notices, downloads: { ...this.snapshot.downloads, [locale]: { locale, done: 0, total: 0 } } });
    // Storage that the browser may not evict without asking: the book is meant to stay.
    void navigator.storage?.persist?.().catch(() => false);
    this.post({ type: 'save', locale });
  }

  cancel(locale: string): void {
    this.post({ type: 'cancel', locale });
  }

  remove(locale: string): void {
    this.post({ type: 'remove', locale });
  }
}

export const offline = new OfflineController();

let navigationInstalled = false;
/**
 * Once a newer build is deployed, the reader's next click on a link of the book loads that page
 * whole (from the network, the newer build) instead of swapping it into this one: the page in
 * view is never changed under the reader, and the next page they open is the new version.
 */
function installFullNavigation(basePath: string): void {
  if (navigationInstalled) return;
  navigationInstalled = true;
  document.addEventListener(
    'click',
    (event) => {
      if (!navigator.onLine || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!anchor || (anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return;
      const url = new URL(anchor.href);
      if (url.origin !== location.origin || !url.pathname.startsWith(basePath)) return;
      if (url.pathname === location.pathname && url.search === location.search) return; // an in-page link
      event.preventDefault();
      location.assign(url.href);
    },
    true,
  );
}

/** Starts the offline feature for the page (OfflineMenu calls it once the page is idle). */
export function startOffline(site: SiteData): void {
  offline.start(site);
}
