/**
 * The build cache does not grow with use: after any sequence of edits and builds (whole or
 * streamed, by a new builder or the last one again), the next `pybook build` leaves each
 * namespace it prunes with exactly the entries a cold build of the same book makes: no entry of
 * an earlier version of a chapter, and none missing, also of the bundles a process makes once and
 * then reuses.
 */
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Builder, type BuildMode } from '../../src/generator/build.js';
import { cacheFolderOf, type CacheNamespace } from '../../src/cache/disk-cache.js';
import { WORKER_ENTRIES } from '../../src/bundler/bundle-workers.js';
import { chapter, createFixtureBook, type FixtureBook } from '../fixtures/fixture-book.js';

/** The namespaces every `pybook build` prunes (see Builder.pruneCache and PageRenderer.prune). */
const PRUNED: CacheNamespace[] = [
  'chapters',
  'search',
  'client',
  'runner',
  'offline',
  'build-content',
  'build-documents',
];
const SLUGS = { en: ['intro', 'sets'], 'zh-cn': ['intro'] } as const;
/** A complete cache of this book: 2 chapters x 2 locales (the fallback is compiled per locale), one entry per worker. */
const anyOf = (count: number): unknown[] => Array.from({ length: count }, (): unknown => expect.any(String));
const COMPLETE = {
  chapters: anyOf(4),
  'build-content': anyOf(4),
  'build-documents': anyOf(4),
  search: anyOf(1),
  runner: anyOf(Object.keys(WORKER_ENTRIES).length),
  offline: anyOf(1),
};

let fixture: FixtureBook;
let cacheDir: string;
beforeAll(async () => {
  fixture = await createFixtureBook({
    chapters: {
      en: { intro: chapter('Intro', 'Hello.'), sets: chapter('Sets', 'Sets.') },
      'zh-cn': { intro: chapter('介绍', '你好。') },
    },
  });
  const { base, parts } = cacheFolderOf(fixture.root);
  cacheDir = path.join(base, ...parts);
});
afterAll(() => fixture.remove());

const entries = (namespace: CacheNamespace) => {
  try {
    return readdirSync(path.join(cacheDir, namespace)).sort();
  } catch {
    return [];
  }
};
const snapshot = () => Object.fromEntries(PRUNED.map((namespace) => [namespace, entries(namespace)]));

/** The last builder, which a build may use again (it keeps its client bundle, say). */
let last: { builder: Builder; mode: BuildMode } | undefined;
async function build(mode: BuildMode, again = false): Promise<void> {
  if (!again || last?.mode !== mode)
    last = { builder: new Builder({ configPath: fixture.configPath, diskCache: true, mode }), mode };
  const result = await last.builder.build();
  // A streamed build's documents are rendered (and their cache pruned) as the writer reads them.
  for (const document of result.documents ?? []) void document;
}

const edit = fc.record({
  locale: fc.constantFrom<keyof typeof SLUGS>('en', 'zh-cn'),
  pick: fc.nat(),
  text: fc.constantFrom(
    'Hello.',
    'Hello `dict`.',
    '## Start\n\nAgain.',
    'Sets.',
    '你好。',
    '## 开始 {#start}\n\n字典。',
  ),
  mode: fc.constantFrom<BuildMode>('in-memory', 'streamed'),
  again: fc.boolean(),
});

describe('the build cache', () => {
  it('holds, after any edits and builds, exactly what a cold build of the last book makes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), async (edits) => {
        for (const { locale, pick, text, mode, again } of edits) {
          const slug = SLUGS[locale][pick % SLUGS[locale].length];
          await fixture.writeChapter(locale, slug, chapter(slug, text));
          await build(mode, again);
        }
        // What the next `pybook build` leaves: a builder used again prunes at each build what none
        // of its builds used, so a later edit's entries stay until a new builder's build.
        await build('streamed');
        const used = snapshot();
        rmSync(cacheDir, { recursive: true, force: true });
        await build('streamed');
        const cold = snapshot();
        expect(used).toEqual(cold);
        // And the cold build keeps all it made, also what this process made once and reused
        // (the workers, the service worker, the client): the next process makes none of it again.
        expect(cold).toMatchObject(COMPLETE);
        expect(cold.client.filter((name) => name.startsWith('manifest-'))).toHaveLength(1);
        expect(cold.client.length).toBeGreaterThan(10);
      }),
      { numRuns: 6 },
    );
    // Up to 30 builds: a backstop for a busy machine, not a measure of speed.
  });
});
