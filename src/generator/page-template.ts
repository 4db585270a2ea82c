/**
 * The HTML shell every page is rendered into (templates/page.html): read and checked once per
 * build. A shell without `{{app}}` or `{{scripts}}` used to build empty pages with exit code 0,
 * and a misspelt placeholder vanished from every page without a word: both are errors here,
 * naming the file, line and column.
 */
import { readFileSync } from 'node:fs';
import { BookError } from '../core/errors.js';

/** Every placeholder renderDocument fills (see render-page.ts). */
export const PAGE_PLACEHOLDERS = [
  'htmlLang',
  'dir',
  'htmlAttributes',
  'pybookVersion',
  'contentSecurityPolicy',
  'headScript',
  'head',
  'app',
  'data',
  'scripts',
] as const;
export type PagePlaceholder = (typeof PAGE_PLACEHOLDERS)[number];

/**
 * Without these a page is broken: no content (`app`), no data to hydrate with (`data`), no
 * client (`scripts`, which also carries watch mode's live reload), no stylesheet (`head`).
 */
const REQUIRED: readonly PagePlaceholder[] = ['head', 'app', 'data', 'scripts'];

/** Anything written like a placeholder, also with spaces or other characters inside the braces. */
const PLACEHOLDER_LIKE = /\{\{([^{}\n]*)\}\}/g;
/** What renderDocument replaces: exactly `{{name}}`. */
export const PLACEHOLDER = /\{\{(\w+)\}\}/g;

const isKnown = (name: string): name is PagePlaceholder => (PAGE_PLACEHOLDERS as readonly string[]).includes(name);

function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/** Throws a BookError at the first placeholder that is not one of PAGE_PLACEHOLDERS, or naming a required one that is missing. */
export function checkPageTemplate(text: string, file: string): void {
  const found = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER_LIKE)) {
    const name = match[1];
    if (isKnown(name)) {
      found.add(name);
      continue;
    }
    const position = positionOf(text, match.index);
    const trimmed = name.trim();
    const hint = isKnown(trimmed)
      ? `write {{${trimmed}}} without spaces`
      : `the placeholders are ${PAGE_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}`;
    throw new BookError(
      `the page template has an unknown placeholder {{${name}}}: ${hint}`,
      { file, ...position },
      text.split(/\r?\n/)[position.line - 1],
    );
  }
  const missing = REQUIRED.filter((name) => !found.has(name));
  if (missing.length) {
    const list = missing.map((name) => `{{${name}}}`).join(', ');
    throw new BookError(
      `the page template lacks ${list}: every page would be ${missing.includes('app') ? 'empty' : 'broken'} without ${missing.length === 1 ? 'it' : 'them'}`,
      { file },
    );
  }
}

/** Reads and checks the page template; a missing or unreadable file is a BookError naming it. */
export function loadPageTemplate(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'there is no such file (was it deleted or moved?)'
        : code === 'EISDIR'
          ? 'it is a folder'
          : (error as Error).message;
    throw new BookError(`cannot read the page template: ${why}`, { file });
  }
  checkPageTemplate(text, file);
  return text;
}
