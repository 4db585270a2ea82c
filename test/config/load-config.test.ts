import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldPath, loadConfig, parseConfig } from '../../src/config/load-config.js';
import type { SidebarItemConfig } from '../../src/shared/model/config.js';
import { BookError } from '../../src/core/errors.js';
import { fixtureConfig } from '../fixtures/fixture-book.js';

const realConfigPath = fileURLToPath(new URL('../../book.config.json', import.meta.url));
const sidebar: SidebarItemConfig[] = [
  { type: 'category', label: { en: 'Start', 'zh-cn': '开始' }, items: ['intro', 'basics'] },
];

/** Parses a config built from the fixture one with `change` applied; returns the error message. */
function errorFor(change: (config: Record<string, unknown>) => void): string {
  const config = fixtureConfig(structuredClone(sidebar));
  change(config);
  try {
    parseConfig(JSON.stringify(config), '/books/book.config.json');
  } catch (error) {
    expect(error).toBeInstanceOf(BookError);
    expect((error as BookError).position?.file).toBe('/books/book.config.json');
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be rejected');
}

describe('loadConfig on the real book', () => {
  it('loads book.config.json with the values of the spec', () => {
    const config = loadConfig(realConfigPath);
    expect(config.basePath).toBe('/python-guide-for-javascript-engineers/');
    expect(config.defaultLocale).toBe('en');
    expect(Object.keys(config.locales)).toEqual(['en', 'zh-cn']);
    // Book 1.3 (book/en/book-1-3.mdx announces it).
    expect(config.siteVersion).toBe('1.3.0');
    expect(config.sitemap).toEqual({ changefreq: 'weekly', priority: 0.5 });
    expect(config.tableOfContents).toEqual({ minHeadingLevel: 2, maxHeadingLevel: 3 });
    expect(config.titleDelimiter).toBe('|');
    expect(config.search.maxResults).toBe(8);
    expect(config.search.snippetLength).toBe(50);
    expect(config.rootDir).toBe(path.dirname(realConfigPath));
  });
});

describe('parseConfig defaults', () => {
  it('fills in optional fields that are left out', () => {
    const config = fixtureConfig(sidebar);
    for (const key of [
      'keywords',
      'siteUrl',
      'contentDir',
      'staticDir',
      'navbar',
      'footer',
      'tableOfContents',
      'titleDelimiter',
      'sitemap',
      'search',
    ])
      delete config[key];
    const parsed = parseConfig(JSON.stringify(config), '/books/book.config.json');
    expect(parsed.keywords).toEqual([]);
    expect(parsed.contentDir).toBe('book');
    expect(parsed.titleDelimiter).toBe('|');
    expect(parsed.sitemap).toEqual({ changefreq: 'weekly', priority: 0.5 });
    expect(parsed.search.languages).toEqual(['en', 'zh']);
    expect(parsed.navbar.hideOnScroll).toBe(true);
    expect(parsed.rootDir).toBe('/books');
  });
});

describe('parseConfig errors name the field path and what was expected', () => {
  it('an unknown top-level field', () => {
    expect(
      errorFor((c) => {
        c.colour = 'red';
      }),
    ).toBe('unknown field "colour": it is not part of the book.config.json schema');
  });

  it('an unknown field inside a sidebar category', () => {
    expect(
      errorFor((c) => {
        (c.sidebar as Array<Record<string, unknown>>)[0].lable = 'x';
      }),
    ).toContain('unknown field "sidebar[0].lable"');
  });

  it('a number out of range', () => {
    expect(
      errorFor((c) => {
        c.sitemap = { changefreq: 'weekly', priority: 2 };
      }),
    ).toBe('field "sitemap.priority" must be <= 1');
  });

  it('a value outside an enumeration lists the allowed values', () => {
    const message = errorFor((c) => {
      c.sitemap = { changefreq: 'sometimes', priority: 0.5 };
    });
    expect(message).toContain('field "sitemap.changefreq" must be one of');
    expect(message).toContain('"weekly"');
  });

  it('a wrong type deep inside locales', () => {
    const message = errorFor((c) => {
      (c.locales as Record<string, Record<string, unknown>>)['zh-cn'].direction = 'sideways';
    });
    expect(message).toBe('field "locales.zh-cn.direction" must be one of "ltr", "rtl"');
  });

  it('a wrong type (string instead of boolean)', () => {
    expect(
      errorFor((c) => {
        c.navbar = { hideOnScroll: 'yes' };
      }),
    ).toBe('field "navbar.hideOnScroll" must be boolean');
  });

  it('a value that fits neither form of localized text says both forms once', () => {
    expect(
      errorFor((c) => {
        c.title = 42;
      }),
    ).toBe('field "title" must be string or object');
    expect(
      errorFor((c) => {
        c.sidebar = [42];
      }),
    ).toBe('field "sidebar[0]" must be string or object');
  });

  it('an empty localized string', () => {
    expect(
      errorFor((c) => {
        c.title = { en: '' };
      }),
    ).toBe('field "title.en" must NOT have fewer than 1 characters');
  });

  it('a missing required field', () => {
    expect(
      errorFor((c) => {
        delete c.author;
      }),
    ).toBe('missing field "author"');
  });

  it('a base path without slashes names the pattern', () => {
    expect(
      errorFor((c) => {
        c.basePath = 'guide';
      }),
    ).toMatch(/^field "basePath" must match /);
  });

  it('a sidebar entry that is neither a slug nor a category', () => {
    const message = errorFor((c) => {
      (c.sidebar as Array<{ items: unknown[] }>)[0].items.push('Not A Slug');
    });
    expect(message).toContain('sidebar[0].items[2]');
  });

  it('several problems are all reported', () => {
    const message = errorFor((c) => {
      delete c.author;
      c.colour = 'red';
    });
    expect(message).toContain('missing field "author"');
    expect(message).toContain('unknown field "colour"');
  });

  it('a default locale that locales does not define', () => {
    expect(
      errorFor((c) => {
        c.defaultLocale = 'fr';
      }),
    ).toBe('field "defaultLocale" is "fr" but "locales" has no such entry (it has en, zh-cn)');
  });

  it('localized text for a locale that does not exist', () => {
    expect(
      errorFor((c) => {
        c.title = { en: 'Guide', de: 'Handbuch' };
      }),
    ).toBe('field "title.de" names a locale that "locales" does not define');
  });

  it('two locales in one folder', () => {
    const message = errorFor((c) => {
      (c.locales as Record<string, Record<string, unknown>>)['zh-cn'].path = 'en';
    });
    expect(message).toBe(
      'field "locales.zh-cn.path" is "en", the same as "locales.en.path": each locale needs its own folder',
    );
  });

  it('a locale whose language search.languages does not list, or the search cannot serve', () => {
    expect(
      errorFor((c) => {
        c.search = { languages: ['en'] };
      }),
    ).toBe('field "search.languages" (en) does not list "zh", the language of locale "zh-cn"');
    expect(
      errorFor((c) => {
        (c.locales as Record<string, unknown>).fr = {
          label: 'Français',
          direction: 'ltr',
          htmlLang: 'fr',
          calendar: 'gregory',
          path: 'fr',
        };
      }),
    ).toBe(
      'field "search.languages" (en, zh) does not list "fr", the language of locale "fr": the search has word rules for en and zh only',
    );
  });

  it('a table of contents whose lowest level is above its highest', () => {
    expect(
      errorFor((c) => {
        c.tableOfContents = { minHeadingLevel: 4, maxHeadingLevel: 3 };
      }),
    ).toBe(
      'field "tableOfContents.minHeadingLevel" (4) must not be greater than "tableOfContents.maxHeadingLevel" (3)',
    );
    expect(
      errorFor((c) => {
        c.tableOfContents = { minHeadingLevel: 4 };
      }),
    ).toMatch(/\(4\) must not be greater than .* \(3\)$/);
  });

  it('invalid JSON reports the line and column', () => {
    try {
      parseConfig('{\n  "title": "x",\n  oops\n}', '/books/book.config.json');
      throw new Error('expected a failure');
    } catch (error) {
      expect(error).toBeInstanceOf(BookError);
      expect((error as Error).message).toMatch(/^invalid JSON/);
      expect((error as BookError).position).toMatchObject({ file: '/books/book.config.json', line: 3 });
    }
  });
});

describe('a truncated config is reported in words, with the file and where it stops', () => {
  const full = JSON.stringify(fixtureConfig(structuredClone(sidebar)), null, 2);
  const failureOf = (text: string): BookError => {
    try {
      parseConfig(text, '/books/book.config.json');
    } catch (error) {
      expect(error).toBeInstanceOf(BookError);
      return error as BookError;
    }
    throw new Error('expected the configuration to be rejected');
  };

  it("cut after a property name's colon", () => {
    const text = full.slice(0, full.indexOf('"title":') + '"title":'.length);
    const error = failureOf(text);
    expect(error.message).toBe('invalid JSON: the file ends too early (is it cut short?): expected a value');
    expect(error.message).not.toMatch(/unexpected the end/);
    expect(error.position).toMatchObject({ file: '/books/book.config.json', line: text.split('\n').length });
  });

  it('cut inside a string', () => {
    const text = full.slice(0, full.indexOf('"title"') + '"ti'.length);
    expect(failureOf(text).message).toBe(
      'invalid JSON: the file ends inside a string (is it cut short?): a closing " is missing',
    );
  });

  it('cut after a value, before the closing brace', () => {
    const text = full.slice(0, full.lastIndexOf('}')).trimEnd();
    expect(failureOf(text).message).toBe(
      'invalid JSON: the file ends too early (is it cut short?): expected "," or "}" after a property value',
    );
  });

  it('an empty file', () => {
    const error = failureOf('\n');
    expect(error.message).toBe('invalid JSON: the file is empty: expected a JSON object');
    expect(error.position?.file).toBe('/books/book.config.json');
  });

  it('a stray character still names itself', () => {
    expect(failureOf('{"title": x}').message).toBe('invalid JSON: unexpected "x": expected a value');
  });
});

describe('loadConfig', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pybook-config-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('names the file when it cannot be read', () => {
    const missing = path.join(dir, 'nope.json');
    expect(() => loadConfig(missing)).toThrow(/cannot read the book configuration/);
  });

  it('reads a file from disk and resolves rootDir to its folder', async () => {
    const file = path.join(dir, 'book.config.json');
    await writeFile(file, JSON.stringify(fixtureConfig(sidebar)));
    expect(loadConfig(file).rootDir).toBe(dir);
  });
});

describe('fieldPath', () => {
  it('turns JSON pointers into readable paths', () => {
    expect(fieldPath('/sidebar/2/items/0')).toBe('sidebar[2].items[0]');
    expect(fieldPath('', 'colour')).toBe('colour');
    expect(fieldPath('')).toBe('(root)');
  });
});
