import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import { BookError } from '../core/errors.js';
import { languageOfLocale, SEARCH_LANGUAGES, type SearchLanguage } from '../search/shared/search-language.js';
import { isInsideFolder } from '../core/paths.js';
import { projectFolder, realPathOf } from '../core/project-folder.js';
import { jsonSyntaxError, MAX_CONFIG_NESTING, tooDeeplyNested } from './json-syntax.js';
import type { BookConfig, LocalizedText, OfflineConfig, SidebarItemConfig } from '../shared/model/config.js';

const require = createRequire(import.meta.url);

// The schema sits beside this module in src/config/; dist/config/ (and dist/bundle/) are also
// two levels below the package root, so the same relative URL finds it from the compiled output.
const schemaUrl = new URL('../../src/config/book.config.schema.json', import.meta.url);
/** The validator that `npm run prepare` compiled from the schema (tools/compile-config-validator.mjs). */
const precompiledFile = fileURLToPath(new URL('../../dist/config/config-validator.cjs', import.meta.url));

export const AJV_OPTIONS: Options = { allErrors: true, useDefaults: false, strict: false };

/** What ties a precompiled validator to the schema text it was compiled from. */
export function schemaHashOf(schemaText: string): string {
  return createHash('sha256').update(schemaText).digest('hex').slice(0, 16);
}

let validator: ValidateFunction | undefined;
/**
 * The schema's validator: the one compiled at `npm run prepare` when it was compiled from this
 * very schema, else compiled now. Loading ajv and compiling the schema took some 140 ms of every
 * command's start.
 */
function getValidator(): ValidateFunction {
  if (validator) return validator;
  const schemaText = readFileSync(schemaUrl, 'utf8');
  try {
    const precompiled = require(precompiledFile) as ValidateFunction & { schemaHash?: string };
    if (precompiled.schemaHash === schemaHashOf(schemaText)) return (validator = precompiled);
  } catch {
    // Not compiled yet (sources run before `npm run prepare`): compile below.
  }
  const { Ajv } = require('ajv') as typeof import('ajv');
  return (validator = new Ajv(AJV_OPTIONS).compile(JSON.parse(schemaText)));
}

/** `/sidebar/2/items/0` -> `sidebar[2].items[0]` */
export function fieldPath(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (extra) parts.push(extra);
  let out = '';
  for (const part of parts) out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  return out || '(root)';
}

function describe(error: ErrorObject): string {
  const where = fieldPath(error.instancePath);
  switch (error.keyword) {
    case 'additionalProperties':
      return `unknown field "${fieldPath(error.instancePath, String(error.params.additionalProperty))}": it is not part of the book.config.json schema`;
    case 'required':
      return `missing field "${fieldPath(error.instancePath, String(error.params.missingProperty))}"`;
    case 'enum':
      return `field "${where}" must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `field "${where}" must be ${JSON.stringify(error.params.allowedValue)}`;
    case 'pattern':
      return `field "${where}" must match ${error.params.pattern}`;
    default:
      return `field "${where}" ${error.message ?? 'is invalid'}`;
  }
}

/**
 * oneOf failures make ajv report every branch; the deepest errors are the ones that explain
 * what is wrong, so report those and drop the generic "must match exactly one schema".
 */
function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  const specific = errors.filter((e) => e.keyword !== 'oneOf');
  const depth = (e: ErrorObject) => e.instancePath.split('/').length;
  const maxDepth = Math.max(...specific.map(depth));
  const chosen = specific.length ? specific.filter((e) => depth(e) === maxDepth) : errors;
  // A value that is neither a slug nor a category: say so once instead of listing both branches.
  const seen = new Set<string>();
  return mergeTypeErrors(chosen).filter((e) => {
    const key = describe(e);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Branches of a oneOf each say "must be string", "must be object": one message lists both. */
function mergeTypeErrors(errors: ErrorObject[]): ErrorObject[] {
  const types = new Map<string, string[]>();
  for (const e of errors)
    if (e.keyword === 'type') types.set(e.instancePath, [...(types.get(e.instancePath) ?? []), String(e.params.type)]);
  const merged = new Set<string>();
  return errors.flatMap((e) => {
    if (e.keyword !== 'type') return [e];
    if (merged.has(e.instancePath)) return [];
    merged.add(e.instancePath);
    return [{ ...e, message: `must be ${types.get(e.instancePath)!.join(' or ')}` }];
  });
}

function positionInJson(text: string, offset: number) {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

function collectLocalized(config: Record<string, unknown>): Array<{ field: string; text: LocalizedText }> {
  const found: Array<{ field: string; text: LocalizedText }> = [];
  const visit = (items: SidebarItemConfig[], prefix: string) =>
    items.forEach((item, i) => {
      if (typeof item === 'string') return;
      found.push({ field: `${prefix}[${i}].label`, text: item.label });
      visit(item.items, `${prefix}[${i}].items`);
    });
  visit(config.sidebar as SidebarItemConfig[], 'sidebar');
  found.push({ field: 'title', text: config.title as LocalizedText });
  found.push({ field: 'tagline', text: config.tagline as LocalizedText });
  const footer = config.footer as { copyright?: LocalizedText } | undefined;
  if (footer?.copyright) found.push({ field: 'footer.copyright', text: footer.copyright });
  const bar = config.announcementBar as { content: LocalizedText } | undefined;
  if (bar) found.push({ field: 'announcementBar.content', text: bar.content });
  const offline = config.offline as { shortName?: LocalizedText } | boolean | undefined;
  if (typeof offline === 'object' && offline.shortName)
    found.push({ field: 'offline.shortName', text: offline.shortName });
  const home = config.home as { cover?: LocalizedText } | undefined;
  if (home?.cover) found.push({ field: 'home.cover', text: home.cover });
  // Per-locale keyword lists: only their locale codes are checked, as for texts.
  const keywords = config.keywords;
  if (keywords && typeof keywords === 'object' && !Array.isArray(keywords))
    found.push({ field: 'keywords', text: keywords as Record<string, string> });
  return found;
}

const sidebarSlugsOf = (items: SidebarItemConfig[]): string[] =>
  items.flatMap((item) => (typeof item === 'string' ? [item] : sidebarSlugsOf(item.items)));

/** Checks that the schema cannot express: references between fields. */
function checkReferences(config: Record<string, unknown>, file: string): void {
  const locales = config.locales as Record<string, unknown>;
  const defaultLocale = config.defaultLocale as string;
  // Own keys only: "toString" or "__proto__" is in every object, and no locale of the book's.
  if (!Object.hasOwn(locales, defaultLocale)) {
    throw new BookError(
      `field "defaultLocale" is "${defaultLocale}" but "locales" has no such entry (it has ${Object.keys(locales).join(', ')})`,
      { file },
    );
  }
  const paths = new Map<string, string>();
  for (const [code, locale] of Object.entries(locales as Record<string, { path: string }>)) {
    const other = paths.get(locale.path);
    if (other)
      throw new BookError(
        `field "locales.${code}.path" is "${locale.path}", the same as "locales.${other}.path": each locale needs its own folder`,
        { file },
      );
    paths.set(locale.path, code);
  }
  const served = (config.search as { languages?: string[] } | undefined)?.languages ?? [...SEARCH_LANGUAGES];
  for (const code of Object.keys(locales)) {
    const language = languageOfLocale(code);
    if (!served.includes(language))
      throw new BookError(
        `field "search.languages" (${served.join(', ') || 'empty'}) does not list "${language}", the language of locale "${code}"` +
          (SEARCH_LANGUAGES.includes(language as SearchLanguage)
            ? ''
            : `: the search has word rules for ${SEARCH_LANGUAGES.join(' and ')} only`),
        { file },
      );
  }
  const toc = config.tableOfContents as { minHeadingLevel?: number; maxHeadingLevel?: number } | undefined;
  if (toc && (toc.minHeadingLevel ?? 2) > (toc.maxHeadingLevel ?? 3)) {
    throw new BookError(
      `field "tableOfContents.minHeadingLevel" (${toc.minHeadingLevel ?? 2}) must not be greater than "tableOfContents.maxHeadingLevel" (${toc.maxHeadingLevel ?? 3})`,
      { file },
    );
  }
  const listed = new Set(sidebarSlugsOf(config.sidebar as SidebarItemConfig[]));
  ((config.home as { projects?: string[] } | undefined)?.projects ?? []).forEach((slug, i) => {
    if (!listed.has(slug))
      throw new BookError(`field "home.projects[${i}]" is "${slug}", which the sidebar does not list`, { file });
  });
  for (const { field, text } of collectLocalized(config)) {
    if (typeof text === 'string') continue;
    for (const key of Object.keys(text)) {
      if (!Object.hasOwn(locales, key))
        throw new BookError(`field "${field}.${key}" names a locale that "locales" does not define`, { file });
    }
  }
}

/** `offline`: on by default; `false` turns it off; an object may also turn it off (`enabled: false`) and name the app. */
function offlineConfigOf(raw: unknown): OfflineConfig {
  if (raw === undefined || raw === true) return { enabled: true };
  if (raw === false) return { enabled: false };
  const { enabled = true, shortName } = raw as Partial<OfflineConfig>;
  return shortName === undefined ? { enabled } : { enabled, shortName };
}

function withDefaults(raw: Record<string, unknown>, rootDir: string): BookConfig {
  const r = raw as Partial<BookConfig> & Record<string, unknown>;
  return {
    ...(r as BookConfig),
    keywords: r.keywords ?? [],
    siteUrl: r.siteUrl ?? 'https://pybook-org.github.io',
    contentDir: r.contentDir ?? 'book',
    staticDir: r.staticDir ?? 'book/static',
    navbar: { hideOnScroll: true, ...r.navbar },
    footer: { ...r.footer },
    announcementBar: r.announcementBar
      ? { ...r.announcementBar, closable: r.announcementBar.closable ?? true }
      : undefined,
    tableOfContents: { minHeadingLevel: 2, maxHeadingLevel: 3, ...r.tableOfContents },
    titleDelimiter: r.titleDelimiter ?? '|',
    sitemap: { changefreq: 'weekly', priority: 0.5, ...r.sitemap },
    search: {
      languages: [...SEARCH_LANGUAGES],
      maxResults: 8,
      snippetLength: 50,
      highlightOnTarget: true,
      ...r.search,
    },
    runner: { timeLimitSeconds: 10, ...r.runner },
    offline: offlineConfigOf(r.offline),
    llms: r.llms ?? true,
    rootDir,
  };
}

/**
 * Reads, validates and completes book.config.json. Throws BookError naming the field. A config
 * file that is a link to a file outside its folder (the project) is refused before it is read:
 * its contents are not the project's, and an error would print a line of them.
 */
export function loadConfig(configPath: string): BookConfig {
  const file = path.resolve(configPath);
  let text: string;
  try {
    if (lstatSync(file).isSymbolicLink()) {
      const target = realpathSync(file);
      const project = realPathOf(path.dirname(file));
      if (!isInsideFolder(target, project))
        throw new BookError(
          `the book configuration is a link to ${target}, outside the project folder ${project}: pybook reads only a configuration inside the project`,
          { file },
        );
    }
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof BookError) throw error;
    throw new BookError(`cannot read the book configuration (expected a book.config.json at this path)`, { file });
  }
  return parseConfig(text, file);
}

export function parseConfig(text: string, file: string): BookConfig {
  // Editors on Windows may save a byte order mark; JSON.parse rejects it.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const deep = tooDeeplyNested(text);
  if (deep !== undefined) {
    const pos = positionInJson(text, deep);
    throw new BookError(
      `the configuration nests more than ${MAX_CONFIG_NESTING} levels deep here: no field of book.config.json needs that many`,
      { file, ...pos },
      text.split(/\r?\n/)[pos.line - 1]?.slice(0, 200),
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const found = jsonSyntaxError(text);
    const pos = found ? positionInJson(text, found.offset) : undefined;
    throw new BookError(
      `invalid JSON: ${found?.message ?? (error as Error).message}`,
      { file, ...pos },
      pos ? text.split(/\r?\n/)[pos.line - 1] : undefined,
    );
  }
  const validate = getValidator();
  if (!validate(raw)) {
    const messages = relevantErrors(validate.errors ?? []).map(describe);
    throw new BookError(messages.join('\n'), { file });
  }
  const config = raw as Record<string, unknown>;
  checkReferences(config, file);
  const complete = withDefaults(config, path.dirname(file));
  // The folders pybook reads must be the project's (links that lead out of it included).
  projectFolder(complete.rootDir, complete.contentDir, 'contentDir', file);
  projectFolder(complete.rootDir, complete.staticDir, 'staticDir', file);
  return complete;
}
