import type { Root } from 'mdast';
import type { VFile } from 'vfile';
import { visit } from '../visit.js';
import type { ChapterLink } from '../../shared/model/chapter.js';

export interface LinkOptions {
  /** Slug of the chapter being compiled, for `#anchor` links. */
  slug: string;
  basePath: string;
  /** Locale folder names (e.g. ['zh-cn']) that may prefix a route an author wrote. */
  localePaths: string[];
  /** URL of a page of this chapter's locale: '' is the home page. */
  routeFor: (slug: string) => string;
}

declare module 'mdast' {
  interface LinkData {
    /** The page a link between chapters points at ('' = the book's home), for later stages (the Markdown export: src/llms/). */
    page?: { slug: string; anchor?: string };
  }
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;
/** A file from the static folder (`/img/cover.svg`, `/files/data.zip`), not a page. */
const STATIC_FILE = /\.(?!mdx?$|html?$)[A-Za-z0-9]+$/;

/** `#100%` is not valid percent-encoding: keep such an anchor as written instead of crashing. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Parses what an author wrote into a target page slug and anchor, or undefined when the link
 * does not point at a page (external URLs and static files).
 */
export function parseLinkTarget(url: string, options: Pick<LinkOptions, 'slug' | 'basePath' | 'localePaths'>) {
  if (EXTERNAL.test(url) || url.startsWith('//')) return undefined;
  const hashAt = url.indexOf('#');
  // The query (e.g. /search/?q=dict) does not change which page is meant.
  const pathPart = (hashAt === -1 ? url : url.slice(0, hashAt)).replace(/\?.*$/, '');
  if (STATIC_FILE.test(pathPart)) return undefined;
  const anchor = hashAt === -1 ? undefined : safeDecode(url.slice(hashAt + 1));
  if (!pathPart) return { targetSlug: options.slug, anchor };
  const fileMatch = /(?:^|\/)([^/]+)\.mdx?$/.exec(pathPart);
  if (fileMatch) return { targetSlug: fileMatch[1] === 'index' ? '' : fileMatch[1], anchor };
  let route = pathPart;
  if (route.startsWith(options.basePath)) route = route.slice(options.basePath.length);
  route = route
    .replace(/^\.?\//, '')
    .replace(/\/?index\.html$|\.html$/, '')
    .replace(/\/+$/, '');
  const [first, ...rest] = route.split('/');
  if (options.localePaths.includes(first)) route = rest.join('/');
  return { targetSlug: route, anchor };
}

/** Rewrites links between chapters to their URL in the same locale and records them for checking. */
export function remarkLinks(options: LinkOptions) {
  return (tree: Root, file: VFile) => {
    const links: ChapterLink[] = [];
    // Root-relative URLs of static files are written without the base path: add it.
    const withBase = (url: string) =>
      url.startsWith('/') && !url.startsWith('//') && !url.startsWith(options.basePath)
        ? options.basePath + url.slice(1)
        : url;
    const recordFile = (url: string, start: { line: number; column: number } | undefined) => {
      if (EXTERNAL.test(url) || url.startsWith('//')) return;
      const staticFile = url.replace(/[?#].*$/, '');
      if (staticFile) links.push({ staticFile, written: url, line: start?.line ?? 0, column: start?.column ?? 0 });
    };
    visit(tree, (node) => {
      if (node.type === 'image') {
        recordFile(node.url, node.position?.start);
        node.url = withBase(node.url);
        return;
      }
      if (node.type !== 'link') return;
      const target = parseLinkTarget(node.url, options);
      if (!target) {
        recordFile(node.url, node.position?.start);
        if (!EXTERNAL.test(node.url)) node.url = withBase(node.url);
        return;
      }
      const start = node.position?.start;
      links.push({ ...target, written: node.url, line: start?.line ?? 0, column: start?.column ?? 0 });
      node.data = {
        ...node.data,
        page: { slug: target.targetSlug, ...(target.anchor !== undefined ? { anchor: target.anchor } : {}) },
      };
      const hash = target.anchor !== undefined ? `#${encodeURIComponent(target.anchor)}` : '';
      const query = /\?[^#]*/.exec(node.url)?.[0] ?? '';
      node.url =
        target.targetSlug === options.slug && hash && !query
          ? hash
          : options.routeFor(target.targetSlug) + query + hash;
    });
    file.data.links = links;
  };
}
