import type { Root } from 'mdast';
import type { VFile } from 'vfile';
import { visit } from 'unist-util-visit';
import type { ChapterLink } from '../types.js';

export interface LinkOptions {
  /** Slug of the chapter being compiled, for `#anchor` links. */
  slug: string;
  basePath: string;
  /** Locale folder names (e.g. ['zh-cn']) that may prefix a route an author wrote. */
  localePaths: string[];
  /** URL of a page of this chapter's locale: '' is the home page. */
  routeFor: (slug: string) => string;
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** Parses what an author wrote into a target page slug and anchor, or undefined when external. */
export function parseLinkTarget(url: string, options: Pick<LinkOptions, 'slug' | 'basePath' | 'localePaths'>) {
  if (EXTERNAL.test(url) || url.startsWith('//')) return undefined;
  const hashAt = url.indexOf('#');
  const pathPart = hashAt === -1 ? url : url.slice(0, hashAt);
  const anchor = hashAt === -1 ? undefined : decodeURIComponent(url.slice(hashAt + 1));
  if (!pathPart) return { targetSlug: options.slug, anchor };
  const fileMatch = /(?:^|\/)([^/]+)\.mdx?$/.exec(pathPart);
  if (fileMatch) return { targetSlug: fileMatch[1] === 'index' ? '' : fileMatch[1], anchor };
  let route = pathPart;
  if (route.startsWith(options.basePath)) route = route.slice(options.basePath.length);
  route = route.replace(/^\.?\//, '').replace(/\/?index\.html$|\.html$/, '').replace(/\/+$/, '');
  const [first, ...rest] = route.split('/');
  if (options.localePaths.includes(first)) route = rest.join('/');
  return { targetSlug: route, anchor };
}

/** Rewrites links between chapters to their URL in the same locale and records them for checking. */
export function remarkLinks(options: LinkOptions) {
  return (tree: Root, file: VFile) => {
    const links: ChapterLink[] = [];
    visit(tree, (node) => {
      if (node.type === 'image') {
        if (node.url.startsWith('/') && !node.url.startsWith(options.basePath)) node.url = options.basePath + node.url.slice(1);
        return;
      }
      if (node.type !== 'link') return;
      const target = parseLinkTarget(node.url, options);
      if (!target) return;
      const start = node.position?.start;
      links.push({ ...target, written: node.url, line: start?.line ?? 0, column: start?.column ?? 0 });
      const hash = target.anchor !== undefined ? `#${encodeURIComponent(target.anchor)}` : '';
      node.url = target.targetSlug === options.slug && hash ? hash : options.routeFor(target.targetSlug) + hash;
    });
    file.data.links = links;
  };
}
