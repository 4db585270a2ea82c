import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Every folder pybook writes holds this file: its manifest (see manifest.ts), the list of every
 * file pybook wrote there. The build puts a marker without the list into the site's files
 * (markerJson, for the files it names by their content); the writer adds the list.
 */
export const MARKER_FILE = '.pybook-output';

export interface MarkerContents {
  generator: 'pybook';
  note: string;
  /** Site-relative paths of files whose name changes whenever their content does. */
  contentNamed: string[];
}

export function markerFields(contentNamed: readonly string[]): MarkerContents {
  return {
    generator: 'pybook',
    note: 'Written by pybook build. pybook replaces this folder whole on the next build, and only while it holds nothing but the files listed here; do not keep your own files here.',
    contentNamed: [...contentNamed].sort(),
  };
}

export function markerJson(contentNamed: readonly string[]): string {
  return `${JSON.stringify(markerFields(contentNamed), null, 1)}\n`;
}

/** The content-named list of a marker's text (the build's, in the site's files). */
export function contentNamedOfMarker(text: string | undefined): string[] {
  try {
    const parsed = JSON.parse(text ?? '') as { contentNamed?: unknown };
    return Array.isArray(parsed.contentNamed)
      ? parsed.contentNamed.filter((n): n is string => typeof n === 'string')
      : [];
  } catch {
    return [];
  }
}

export function readMarker(dir: string): MarkerContents | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path.join(dir, MARKER_FILE), 'utf8')) as Partial<MarkerContents>;
    return parsed.generator === 'pybook'
      ? ({ ...parsed, contentNamed: Array.isArray(parsed.contentNamed) ? parsed.contentNamed : [] } as MarkerContents)
      : undefined;
  } catch {
    return undefined;
  }
}
