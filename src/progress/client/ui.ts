/**
 * The reader's progress in the page (a lazy entry, loaded after a page is shown when the reader
 * has progress to show, and always on the home page): a mark in the sidebar beside each chapter
 * whose exercise they solved, "Exercise solved" at the top of such a chapter, each part's count
 * on the home page with a link to where they left off, and the home page's "Your progress" panel
 * to export, import, reset or clear what this browser keeps (store.ts). Solved means the last
 * Check passed every test of the exercise as it is now; a chapter is solved in both languages.
 */
import type { ProgressModule } from '../../client/core/lazy-contracts.js';
import { pageSiteData } from '../../client/core/page-site-data.js';
import { plural } from '../../shared/i18n/plural.js';
import type { SidebarEntry, SiteData } from '../../shared/model/page.js';
import { learnerFile, LearnerFileError, parseLearnerFile } from '../shared/learner-data.js';
import { LearnerStore } from './store.js';
import { adoptProgressStyles } from './progress-styles.js';

adoptProgressStyles();

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));

/** The sidebar's chapters in reading order, with their links. */
function chaptersOf(entries: SidebarEntry[]): Array<{ slug: string; href: string; label: string }> {
  return entries.flatMap((entry) =>
    entry.type === 'link' ? [{ slug: entry.slug, href: entry.href, label: entry.label }] : chaptersOf(entry.items),
  );
}

/** The slugs whose exercise the reader solved (their last Check passed the tests as they are now). */
function solvedSlugs(site: SiteData, store: LearnerStore): Set<string> {
  const results = store.exercises();
  const exercises = site.exercises ?? {};
  return new Set(
    Object.keys(exercises).filter((slug) => results[slug]?.passed && results[slug].tests === exercises[slug]),
  );
}

/** Marks the sidebar's links (both the sidebar and the phone menu) of solved chapters. */
function markSidebar(site: SiteData, solved: Set<string>): void {
  const slugByHref = new Map(chaptersOf(site.sidebar).map((c) => [c.href, c.slug]));
  for (const link of Array.from(document.querySelectorAll<HTMLAnchorElement>('a.sidebar-link'))) {
    const slug = slugByHref.get(link.getAttribute('href') ?? '');
    const done = slug !== undefined && solved.has(slug);
    if (done === link.hasAttribute('data-solved')) continue;
    link.toggleAttribute('data-solved', done);
    if (done) link.setAttribute('aria-description', site.strings.progress.sidebarSolved);
    else link.removeAttribute('aria-description');
  }
}

/** "Exercise solved" (or not yet, once checked) after a chapter's reading time. */
function markChapter(site: SiteData, store: LearnerStore, solved: Set<string>): void {
  const article = document.querySelector<HTMLElement>('[data-chapter]');
  const slug = article?.dataset.chapter;
  const meta = article?.querySelector('.chapter-header');
  if (!article || !slug || !meta || !site.exercises?.[slug]) return;
  article.querySelector('.learner-status')?.remove();
  const checked = store.exercises()[slug];
  if (!checked) return;
  const status = document.createElement('p');
  status.className = 'learner-status';
  status.dataset.solved = String(solved.has(slug));
  const starter = article.querySelector('.code-block[data-exercise="starter"]');
  const link = document.createElement('a');
  link.href = `#${exerciseHeading(starter) ?? ''}`;
  link.textContent = solved.has(slug)
    ? `✓ ${site.strings.progress.chapterSolved}`
    : site.strings.progress.chapterNotSolved;
  status.append(link);
  meta.append(status);
}

/** The id of the heading above an exercise's starter block. */
function exerciseHeading(starter: Element | null): string | undefined {
  for (let node = starter?.previousElementSibling; node; node = node.previousElementSibling)
    if (/^H[23]$/.test(node.tagName) && node.id) return node.id;
  return undefined;
}

/** The home page: each part's count, "Continue" where the reader left off, and the panel to manage their data. */
function markHome(site: SiteData, store: LearnerStore, solved: Set<string>): void {
  const home = document.querySelector<HTMLElement>('.home');
  if (!home) return;
  const t = site.strings.progress;
  const lang = site.locale.htmlLang;
  const exercises = site.exercises ?? {};
  const chapters = chaptersOf(site.sidebar);
  const slugByHref = new Map(chapters.map((c) => [c.href, c.slug]));
  for (const part of Array.from(home.querySelectorAll<HTMLElement>('.home-part'))) {
    const slugs = Array.from(part.querySelectorAll('a.home-chapter-title'))
      .map((a) => slugByHref.get(a.getAttribute('href') ?? ''))
      .filter((slug): slug is string => slug !== undefined && slug in exercises);
    part.querySelector('.learner-part')?.remove();
    if (!slugs.length) continue;
    const line = document.createElement('p');
    line.className = 'learner-part';
    line.textContent = plural(t.partProgress, slugs.length, lang, { done: slugs.filter((s) => solved.has(s)).length });
    part.querySelector('h3')?.after(line);
  }
  home.querySelector('.learner-continue')?.remove();
  const next = continueAt(chapters, store, solved);
  const start = home.querySelector('.home-text .button');
  if (next && start) {
    const link = document.createElement('a');
    link.className = 'button button-secondary learner-continue';
    link.href = next.href;
    link.textContent = fill(t.continueReading, { chapter: next.label });
    start.after(link);
  }
  const panel = home.querySelector<HTMLElement>('[data-learner-home]');
  if (panel && !panel.hasChildNodes()) buildPanel(panel, site, store);
  const summary = panel?.querySelector('.learner-summary');
  if (summary) summary.textContent = plural(t.partProgress, Object.keys(exercises).length, lang, { done: solved.size });
}

/** Where the reader left off: the chapter they read last, or the next one once its exercise is solved. */
function continueAt(chapters: ReturnType<typeof chaptersOf>, store: LearnerStore, solved: Set<string>) {
  const last = store.last();
  const index = chapters.findIndex((c) => c.slug === last?.slug);
  if (index < 0) return undefined;
  return solved.has(chapters[index].slug) ? chapters[index + 1] : chapters[index];
}

/** The "Your progress" panel: a summary and the buttons that export, import, reset and clear. */
function buildPanel(panel: HTMLElement, site: SiteData, store: LearnerStore): void {
  const t = site.strings.progress;
  const summary = document.createElement('p');
  summary.className = 'learner-summary';
  const status = document.createElement('p');
  status.className = 'learner-message';
  status.setAttribute('role', 'status');
  const say = (text: string) => {
    status.textContent = text;
  };
  const button = (label: string, action: () => void) => {
    const made = document.createElement('button');
    made.type = 'button';
    made.className = 'button button-secondary';
    made.textContent = label;
    made.addEventListener('click', action);
    return made;
  };
  const picker = document.createElement('input');
  picker.type = 'file';
  picker.accept = '.json,application/json';
  picker.hidden = true;
  picker.addEventListener('change', () => {
    const file = picker.files?.[0];
    picker.value = '';
    if (!file) return;
    void file.text().then((text) => {
      try {
        const data = parseLearnerFile(text);
        if (!store.importData(data)) throw new LearnerFileError('(file)', site.strings.runner.editNotKept);
        const code = Object.values(data.code).reduce((sum, blocks) => sum + Object.keys(blocks).length, 0);
        say(fill(t.imported, { code, exercises: Object.keys(data.exercises).length }));
      } catch (error) {
        say(fill(t.importFailed, { reason: error instanceof Error ? error.message : String(error) }));
      }
    });
  });
  const actions = document.createElement('div');
  actions.className = 'learner-actions';
  actions.append(
    button(t.export, () => exportFile(site, store)),
    button(t.import, () => picker.click()),
    button(t.resetCode, () => {
      if (!window.confirm(t.confirmResetCode)) return;
      store.resetAllCode();
      say(t.codeReset);
    }),
    button(t.clear, () => {
      if (!window.confirm(t.confirmClear)) return;
      store.clearAll();
      say(t.cleared);
    }),
    picker,
  );
  panel.append(summary, actions, status);
}

/** Saves the reader's data as a JSON file (made in the page: nothing is sent anywhere). */
function exportFile(site: SiteData, store: LearnerStore): void {
  const now = new Date();
  const file = learnerFile(store.exportData(), site.title, now);
  const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 1)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `pybook-progress-${now.toISOString().slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

let state: { site: SiteData; store: LearnerStore } | undefined;
let observer: MutationObserver | undefined;

/** Shows the reader's progress on the page just rendered, and keeps it current as it changes. */
export async function showProgress(): Promise<void> {
  if (!state) {
    const site = await pageSiteData();
    const store = new LearnerStore(site.basePath, site.locale.code);
    state = { site, store };
    store.subscribe(apply);
    // The sidebar is rendered again on navigation (and the phone menu when opened): mark it again.
    observer = new MutationObserver(() => markSidebar(site, solvedSlugs(site, store)));
    observer.observe(document.body, { childList: true, subtree: true });
  }
  apply();
}

function apply(): void {
  if (!state) return;
  const { site, store } = state;
  const solved = solvedSlugs(site, store);
  markSidebar(site, solved);
  markChapter(site, store, solved);
  markHome(site, store, solved);
}

// The shape client/core expects of this module (it loads it by name, without importing it).
({ showProgress }) satisfies ProgressModule;
