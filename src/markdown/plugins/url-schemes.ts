import type { Root } from 'mdast';
import type { VFile } from 'vfile';
import { visit } from '../visit.js';
import { errorAt } from './located-error.js';

/** Schemes a chapter's links and images may use; anything else (javascript:, data:, vbscript:, file:…) fails the build. */
const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);

/**
 * Browsers ignore ASCII whitespace and control characters inside a URL's scheme
 * (`java\tscript:` runs), so the scheme is read the way they read it.
 */
export function urlScheme(url: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const compact = url.replace(/[\u0000-\u0020\u007f]/g, '');
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  return match?.[1].toLowerCase();
}

/**
 * Nothing a chapter contains may run script in the page: every link, image and link definition
 * is relative, or uses one of the allowed schemes. The error names the file, line and column.
 */
export function remarkUrlSchemes() {
  return (tree: Root, file: VFile) => {
    visit(tree, (node) => {
      if (node.type !== 'link' && node.type !== 'image' && node.type !== 'definition') return;
      const scheme = urlScheme(node.url);
      if (scheme === undefined || ALLOWED_SCHEMES.has(scheme)) return;
      const what = node.type === 'image' ? 'an image' : 'a link';
      throw errorAt(
        file,
        node,
        `${what} with the URL scheme "${scheme}:" is not allowed (allowed: relative links, ${[...ALLOWED_SCHEMES].map((s) => `${s}:`).join(', ')})`,
      );
    });
  };
}
