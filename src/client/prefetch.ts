interface NetworkInformationLike {
  saveData?: boolean;
  effectiveType?: string;
}

/** Spec: prefetching is skipped on 2g or save-data connections. */
export function prefetchAllowed(): boolean {
  const connection = (navigator as Navigator & { connection?: NetworkInformationLike }).connection;
  if (!connection) return true;
  return !connection.saveData && !(connection.effectiveType ?? '').includes('2g');
}

/**
 * Prefetches the page module of internal links as they scroll into view or are hovered, so a
 * click renders at once. `moduleFor` maps a link to its route module URL (undefined = not a route);
 * `load` is the router's module loader (route-modules.ts), passed in rather than imported so that
 * it stays in the entry instead of becoming a shared chunk of its own on every first load.
 */
export function startPrefetching(
  moduleFor: (anchor: HTMLAnchorElement) => string | undefined,
  load: (url: string) => Promise<unknown>,
): () => void {
  if (!prefetchAllowed()) return () => {};
  const done = new Set<string>();
  const prefetch = (anchor: HTMLAnchorElement) => {
    const url = moduleFor(anchor);
    if (!url || done.has(url)) return;
    done.add(url);
    load(url).catch(() => done.delete(url));
  };
  const observer =
    'IntersectionObserver' in window
      ? new IntersectionObserver((entries) => {
          for (const entry of entries) {
            if (!entry.isIntersecting) continue;
            observer?.unobserve(entry.target);
            const anchor = entry.target as HTMLAnchorElement;
            // Idle time only: prefetching must never compete with the reader's own interaction.
            const later = () => prefetch(anchor);
            if (window.requestIdleCallback) window.requestIdleCallback(later);
            else window.setTimeout(later, 1);
          }
        })
      : undefined;
  const observeAll = () =>
    document.querySelectorAll<HTMLAnchorElement>('a[href]').forEach((a) => {
      if (moduleFor(a)) observer?.observe(a);
    });
  const onHover = (event: Event) => {
    const anchor = (event.target as Element | null)?.closest?.('a[href]');
    if (anchor) prefetch(anchor as HTMLAnchorElement);
  };
  observeAll();
  document.addEventListener('mouseover', onHover, { passive: true });
  document.addEventListener('focusin', onHover);
  const mutations = new MutationObserver(() => observeAll());
  mutations.observe(document.getElementById('__pybook') ?? document.body, { childList: true, subtree: true });
  return () => {
    observer?.disconnect();
    mutations.disconnect();
    document.removeEventListener('mouseover', onHover);
    document.removeEventListener('focusin', onHover);
  };
}
