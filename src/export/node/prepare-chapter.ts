import type { Element, ElementContent, Root, RootContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { classesOf, h, hasClass, isElement, textOf, walkElements } from './hast.js';

/** Where a link of the site's rendering points, as the exports see it. */
export type LinkTarget =
  | { kind: 'chapter'; slug: string; hash?: string }
  | { kind: 'home' }
  | { kind: 'static'; sitePath: string }
  | { kind: 'external'; url: string };

/** How one export names places: ids inside a chapter, links to chapters, answers and files. */
export interface ExportTargets {
  /** The id an element of chapter `slug` gets (unique in the output file). */
  id(slug: string, id: string): string;
  /** Where a link goes (an href), or undefined to leave it as the site has it. */
  link(from: string, target: LinkTarget): string;
  /** The src of an image of the site (its path below the base path), or undefined to drop it. */
  image(sitePath: string): string | undefined;
  /** The level a heading of the chapter (2-6) announces (aria-level), when the export sets one. */
  headingLevel?(depth: number): number | undefined;
}

/** What a hint or answer moved to the appendix was: its label and content. */
export interface MovedPart {
  kind: 'hint' | 'answer';
  label: string;
  content: ElementContent[];
}

/** Hints and an answer that stood together in a chapter, now in the appendix (numbered from 1 per chapter). */
export interface AnswerEntry {
  slug: string;
  number: number;
  parts: MovedPart[];
}

export interface PreparedChapter {
  content: Root;
  answers: AnswerEntry[];
}

/**
 * Turns a chapter's content, as the site renders it, into what a printed or e-book page shows:
 * no buttons (copy, wrap, Run, Edit, Check) and no section links; tabs one after another, each
 * under its label; links and ids made to work inside the export's file(s); and every run of hints
 * and answer (<details class="answer">) moved out, to the answers appendix, leaving a link to it
 * (`answerLink` makes that paragraph).
 */
export function prepareChapter(
  slug: string,
  html: string,
  basePath: string,
  localePrefix: string,
  targets: ExportTargets,
  answerLink: (entry: AnswerEntry) => Element,
): PreparedChapter {
  const content = fromHtml(html, { fragment: true });
  const resolve = (href: string) => linkTargetOf(href, slug, basePath, localePrefix);
  walkElements(content, (node) => {
    const classes = classesOf(node);
    if (classes.some((c) => DROPPED_CLASSES.has(c))) return 'remove';
    const props = node.properties;
    if (hasClass(node, 'code-block')) {
      delete props.dataExerciseTests;
      delete props.dataRaises;
    }
    if (node.tagName === 'pre') delete props.tabIndex;
    if (typeof props.id === 'string') props.id = targets.id(slug, props.id);
    if (node.tagName === 'a' && typeof props.href === 'string') {
      props.href = targets.link(slug, resolve(props.href));
      delete props.title;
    }
    if (node.tagName === 'img' && typeof props.src === 'string') {
      const target = resolve(props.src);
      const src = target.kind === 'static' ? targets.image(target.sitePath) : undefined;
      if (src === undefined) return 'remove';
      props.src = src;
    }
    if (/^h[2-6]$/.test(node.tagName)) {
      delete props.className;
      const level = targets.headingLevel?.(Number(node.tagName[1]));
      if (level !== undefined) props.ariaLevel = String(level);
    }
    // Rebuilt in place, so that what the panels hold is visited next.
    if (hasClass(node, 'tabs')) tabsOneAfterAnother(node);
    return undefined;
  });
  const answers = moveAnswers(slug, content, answerLink);
  return { content, answers };
}

/** Controls of the page, which neither a printed page nor an e-book can use. */
const DROPPED_CLASSES = new Set(['code-buttons', 'code-run', 'exercise-results', 'hash-link']);

/** A link of the site's rendering, sorted: a chapter (of this locale), the home page, a static file, or elsewhere. */
export function linkTargetOf(href: string, slug: string, basePath: string, localePrefix: string): LinkTarget {
  if (href.startsWith('#')) return { kind: 'chapter', slug, hash: decodeURIComponent(href.slice(1)) || undefined };
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return { kind: 'external', url: href };
  if (!href.startsWith(basePath)) return { kind: 'external', url: href };
  const [pathPart, hash] = splitHash(href.slice(basePath.length));
  const local = pathPart.replace(/[?].*$/, '');
  if (/\.[a-z0-9]+$/i.test(local)) return { kind: 'static', sitePath: local };
  if (localePrefix && !local.startsWith(localePrefix)) {
    // Another locale's page: the site has it, the export does not.
    return { kind: 'external', url: href };
  }
  const rest = local.slice(localePrefix.length).replace(/\/+$/, '');
  if (rest === '') return hash ? { kind: 'chapter', slug: '', hash } : { kind: 'home' };
  if (rest.includes('/')) return { kind: 'external', url: href };
  return { kind: 'chapter', slug: rest, hash };
}

function splitHash(value: string): [string, string | undefined] {
  const at = value.indexOf('#');
  if (at < 0) return [value, undefined];
  return [value.slice(0, at), decodeURIComponent(value.slice(at + 1)) || undefined];
}

/** A set of tabs made its panels one after another, each under its label (the tab strip goes). */
function tabsOneAfterAnother(tabs: Element): void {
  const panels = tabs.children.filter((child): child is Element => isElement(child) && hasClass(child, 'tabs-panel'));
  const children: ElementContent[] = [];
  for (const panel of panels) {
    const label = String(panel.properties.dataTabLabel ?? panel.properties.dataTabPanel ?? '');
    children.push(
      h('div', { className: ['tabs-panel', 'tabs-panel-printed'] }, [
        h('p', { className: ['tabs-panel-label'] }, [label]),
        ...panel.children,
      ]),
    );
  }
  tabs.properties = { className: ['tabs', 'tabs-printed'] };
  tabs.children = children;
}

const isAnswer = (node: RootContent | undefined): node is Element =>
  isElement(node) && node.tagName === 'details' && hasClass(node, 'answer');
const isBlank = (node: RootContent) => node.type === 'text' && node.value.trim() === '';

/**
 * Moves each run of hints and answer (consecutive <details class="answer">, at any depth) out of
 * the chapter into entries of the answers appendix, and puts `answerLink(entry)` in its place.
 */
function moveAnswers(slug: string, content: Root, answerLink: (entry: AnswerEntry) => Element): AnswerEntry[] {
  const entries: AnswerEntry[] = [];
  const visit = (parent: Root | Element) => {
    const children = parent.children as RootContent[];
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (!isAnswer(child)) {
        if (isElement(child)) visit(child);
        continue;
      }
      // The run: this <details> and those that follow it (with only white space between).
      let end = i;
      for (let j = i + 1; j < children.length; j++) {
        if (isAnswer(children[j])) end = j;
        else if (!isBlank(children[j])) break;
      }
      const parts = children
        .slice(i, end + 1)
        .filter(isAnswer)
        .map((details): MovedPart => {
          const summary = details.children.find((c): c is Element => isElement(c) && c.tagName === 'summary');
          const body = details.children.find((c): c is Element => isElement(c) && hasClass(c, 'answer-content'));
          return {
            kind: hasClass(details, 'hint') ? 'hint' : 'answer',
            label: summary ? textOf(summary).trim() : '',
            content: body?.children ?? [],
          };
        });
      const entry: AnswerEntry = { slug, number: entries.length + 1, parts };
      entries.push(entry);
      children.splice(i, end + 1 - i, answerLink(entry));
    }
  };
  visit(content);
  return entries;
}
