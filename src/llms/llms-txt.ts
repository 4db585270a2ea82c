import type { Link, PhrasingContent, Root, RootContent } from 'mdast';
import type { SidebarEntry, SiteData } from '../shared/model/page.js';
import { filled } from './template.js';
import { stringifyMarkdown } from './stringify.js';

export interface ListedChapter {
  slug: string;
  title: string;
  description?: string;
  /** Absolute URL of its Markdown. */
  url: string;
}

export interface LlmsIndexInput {
  site: SiteData;
  /** The chapters the sidebar lists, by slug. */
  chapters: Map<string, ListedChapter>;
  /** Absolute URL of the locale's llms-full.txt. */
  fullUrl: string;
  /** The other locales' llms.txt, by label. */
  otherLocales: Array<{ label: string; url: string }>;
}

/**
 * A locale's llms.txt as the llmstxt.org proposal lays it out: the book's title (H1), its tagline
 * (a quote), a paragraph that links llms-full.txt and the other languages, then one H2 section per
 * sidebar category holding chapters, each a list of `- [title](url): description`, in sidebar
 * order. A category inside another is titled with both labels (`Part 1 › Variables`): the format
 * has sections of one level only.
 */
export function llmsIndex({ site, chapters, fullUrl, otherLocales }: LlmsIndexInput): string {
  const { strings } = site;
  const children: RootContent[] = [
    { type: 'heading', depth: 1, children: [text(site.title)] },
    { type: 'blockquote', children: [{ type: 'paragraph', children: [text(site.tagline)] }] },
    { type: 'paragraph', children: filled(strings.markdown.fullBook, { link: [link('llms-full.txt', fullUrl)] }) },
  ];
  if (otherLocales.length) {
    const links = otherLocales.flatMap(({ label, url }, i) => [...(i ? [text(', ')] : []), link(label, url)]);
    children.push({ type: 'paragraph', children: filled(strings.markdown.otherLanguages, { links }) });
  }
  for (const section of sectionsOf(site.sidebar)) {
    const listed = section.slugs.flatMap((slug) => chapters.get(slug) ?? []);
    if (!listed.length) continue;
    children.push({
      type: 'heading',
      depth: 2,
      children: [text(section.trail.length ? section.trail.join(' › ') : strings.docsSidebarLabel)],
    });
    children.push({
      type: 'list',
      ordered: false,
      spread: false,
      children: listed.map((chapter) => ({
        type: 'listItem',
        spread: false,
        children: [
          {
            type: 'paragraph',
            children: [
              link(chapter.title, chapter.url),
              ...(chapter.description ? [text(`: ${chapter.description.replace(/\s+/g, ' ').trim()}`)] : []),
            ],
          },
        ],
      })),
    });
  }
  return stringifyMarkdown({ type: 'root', children } satisfies Root);
}

interface Section {
  trail: string[];
  slugs: string[];
}

/** The sidebar's chapters in order, grouped by the categories that hold them (the home link left out). */
function sectionsOf(entries: SidebarEntry[], trail: string[] = [], out: Section[] = []): Section[] {
  for (const entry of entries) {
    if (entry.type === 'category') {
      sectionsOf(entry.items, [...trail, entry.label], out);
      continue;
    }
    if (!entry.slug) continue;
    const last = out[out.length - 1];
    if (last && last.trail.join('\0') === trail.join('\0')) last.slugs.push(entry.slug);
    else out.push({ trail, slugs: [entry.slug] });
  }
  return out;
}

const text = (value: string): PhrasingContent => ({ type: 'text', value });
const link = (label: string, url: string): Link => ({ type: 'link', url, children: [text(label)] });
