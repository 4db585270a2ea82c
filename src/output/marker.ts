import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Every folder pybook writes holds this file. It is how pybook knows that a folder is its own
 * and may be replaced whole; a folder without it is never deleted. It also lists the files that
 * pybook named by their content, which the server may tell browsers to cache for good.
 */
export const MARKER_FILE = '.pybook-output';

export interface MarkerContents {
  generator: 'pybook';
  note: string;
  /** Site-relative paths of files whose name changes whenever their content does. */
  contentNamed: string[];
}

export function markerJson(contentNamed: string[]): string {
  const marker: MarkerContents = {
    generator: 'pybook',
    note: 'Written by pybook build. pybook replaces this folder whole on the next build; do not keep your own files here.',
    contentNamed: [...contentNamed].sort(),
  };
  return `${JSON.stringify(marker, null, 1)}\n`;
}

export function readMarker(dir: string): MarkerContents | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path.join(dir, MARKER_FILE), 'utf8')) as Partial<MarkerContents>;
    return parsed.generator === 'pybook' ? { ...parsed, contentNamed: Array.isArray(parsed.contentNamed) ? parsed.contentNamed : [] } as MarkerContents : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True for a folder pybook wrote: it has the marker, or (built before the marker existed) its
 * home page names pybook as its generator and it has pybook's assets folder.
 */
export function isPybookOutput(dir: string): boolean {
  if (readMarker(dir)) return true;
  try {
    const home = readFileSync(path.join(dir, 'index.html'), 'utf8').slice(0, 4096);
    return /<meta name="generator" content="pybook [^"]*">/.test(home) && existsSync(path.join(dir, 'assets'));
  } catch {
    return false;
  }
}
