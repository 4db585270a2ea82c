/**
 * The listeners behind code-block buttons and tabs in the server-rendered content. The behaviour
 * itself (content-behaviour.ts) is a lazy chunk, fetched when the reader first points at, focuses
 * or uses such a control, so it is not part of the first load.
 */
import { loadLazyModule } from './lazy-modules.js';
import type { SiteData } from '../../shared/model/page.js';

type Behaviour = typeof import('./content-behaviour.js');

let loading: Promise<Behaviour> | undefined;
function behaviour(): Promise<Behaviour> {
  loading ??= import('./content-behaviour.js').catch((error: unknown) => {
    loading = undefined; // the next interaction tries again
    throw error;
  });
  return loading;
}

const CONTROL = 'button[data-code-action], [data-tabs] [role=tab]';
const controlOf = (event: Event) => (event.target as Element | null)?.closest?.<HTMLElement>(CONTROL);
const TAB_KEYS = new Set(['ArrowRight', 'ArrowLeft', 'Home', 'End']);

export function installContentEvents(): void {
  // Loaded as soon as a control is pointed at or focused: by the click it is usually there.
  // Pointing at or focusing Run, Check or Edit is a sign of intent: the example runtime starts loading then.
  const warm = (event: Event) => {
    const control = controlOf(event);
    if (!control) return;
    void behaviour().then(
      (b) => {
        if (
          control.matches('button[data-code-action=run], button[data-code-action=check], button[data-code-action=edit]')
        )
          b.onRunnerIntent(control as HTMLButtonElement, loadLazyModule);
      },
      () => {},
    );
  };
  document.addEventListener('pointerover', warm, { passive: true });
  document.addEventListener('focusin', warm);
  document.addEventListener('click', (event) => {
    const control = controlOf(event);
    if (!control) return;
    // What the button says now, as it is pressed: by the time its module has loaded it may say another thing.
    const action = control.dataset.codeAction;
    void behaviour().then(
      (b) => {
        if (control.matches('button[data-code-action]'))
          b.onCodeButton(control as HTMLButtonElement, action ?? '', loadLazyModule);
        else b.selectTab(control, false);
      },
      () => {},
    ); // not loaded (offline): the next interaction tries again
  });
  document.addEventListener('keydown', (event) => {
    const control = controlOf(event);
    if (!control || !control.matches('[role=tab]') || !TAB_KEYS.has(event.key)) return;
    event.preventDefault();
    void behaviour().then(
      (b) => {
        const next = b.tabForKey(event.key, control);
        if (next) b.selectTab(next, true);
      },
      () => {},
    );
  });
}

/**
 * After a page render: applies the reader's remembered tab choices (loading the behaviour only
 * where grouped tabs are), and once the page is idle, what the reader left in this browser (their
 * code, their progress: content-behaviour.ts, a lazy chunk, so the first load carries none of it).
 * `chapter` is the slug of a chapter page.
 */
export function applyContentStateLater(
  site: Pick<SiteData, 'basePath' | 'lazyModules'>,
  chapter?: string,
  root: ParentNode = document,
): void {
  if (root.querySelector('[data-tabs][data-group]'))
    void behaviour()
      .then((b) => b.applyTabChoices(root))
      .catch(() => {});
  const later = () =>
    void behaviour()
      .then((b) => b.applyReaderState(site, chapter, root, loadLazyModule))
      .catch(() => {});
  if (window.requestIdleCallback) window.requestIdleCallback(later, { timeout: 2000 });
  else window.setTimeout(later, 200);
}
