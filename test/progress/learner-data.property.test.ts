import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LEARNER_FILE_FORMAT,
  LearnerFileError,
  learnerFile,
  mergeLearnerData,
  parseLearnerFile,
  type LearnerData,
} from '../../src/progress/shared/learner-data.js';
import { blockKeys } from '../../src/progress/client/block-keys.js';

const NOW = Date.UTC(2026, 10, 28);

const slug = fc.stringMatching(/^[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}$/);
// A key is a short base-36 word, and "constructor" is one: a member of Object.prototype that a
// lookup in an ordinary object finds without it being there (CI's run found it at random once).
const blockKey = fc.oneof(
  { arbitrary: fc.stringMatching(/^[0-9a-z]{1,11}(-[1-9][0-9]{0,2})?$/), weight: 9 },
  { arbitrary: fc.constant('constructor'), weight: 1 },
);
const at = fc.integer({ min: 0, max: NOW });
const testsKey = fc.stringMatching(/^[0-9a-f]{16}$/);
const learnerData: fc.Arbitrary<LearnerData> = fc.record(
  {
    code: fc.dictionary(
      slug,
      fc.dictionary(
        blockKey,
        fc.record(
          { code: fc.string({ maxLength: 200 }), at, locale: fc.constantFrom('en', 'zh-cn') },
          { requiredKeys: ['code', 'at'] },
        ),
        { maxKeys: 4 },
      ),
      {
        maxKeys: 4,
      },
    ),
    exercises: fc.dictionary(slug, fc.record({ at, passed: fc.boolean(), tests: testsKey }), { maxKeys: 4 }),
    last: fc.record({ slug, at }),
  },
  { requiredKeys: ['code', 'exercises'] },
);

const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('an exported progress file', () => {
  it('reads back as the data it was written from', () => {
    fc.assert(
      fc.property(learnerData, (data) => {
        const text = JSON.stringify(learnerFile(data, 'A book', new Date(NOW)));
        expect(plain(parseLearnerFile(text, NOW))).toEqual(plain(data));
      }),
    );
  });

  it('is refused, naming the field, when any part of it is not what pybook writes', () => {
    // Each corruption of a valid file, and the field the error must name.
    /** A file as JSON gives it back, open to any change. */
    interface LooseFile {
      format: unknown;
      version: unknown;
      code: Record<string, unknown>;
      exercises: Record<string, unknown>;
      last?: unknown;
    }
    const corruptions: Array<[string, (file: LooseFile) => void, RegExp]> = [
      ['not a pybook file', (f) => (f.format = 'something-else'), /^format/],
      ['a newer version', (f) => (f.version = 2), /^version/],
      ['code not an object', (f) => (f.code = [] as unknown as Record<string, unknown>), /^code/],
      ['a slug with a path in it', (f) => (f.code['../etc'] = {}), /^code\./],
      [
        'a prototype key',
        (f) => Object.defineProperty(f.code, '__proto__', { value: {}, enumerable: true }),
        /^code\./,
      ],
      ['a block key that is not one', (f) => (f.code['a-b'] = { 'x y': { code: '', at: 1 } }), /^code\.a-b\./],
      ['code that is not text', (f) => (f.code.ch = { k1: { code: 3, at: 1 } }), /^code\.ch\.k1\.code/],
      [
        'a time in the future',
        (f) => (f.code.ch = { k1: { code: '', at: NOW + 2 * 86_400_000 } }),
        /^code\.ch\.k1\.at/,
      ],
      [
        'a locale that is not one',
        (f) => (f.code.ch = { k1: { code: '', at: 1, locale: '../x' } }),
        /^code\.ch\.k1\.locale/,
      ],
      ['a time that is not a number', (f) => (f.code.ch = { k1: { code: '', at: '1' } }), /\.at/],
      ['passed not a boolean', (f) => (f.exercises.ch = { at: 1, passed: 'yes', tests: 'ab12ab12ab12ab12' }), /passed/],
      ['a tests key that is not one', (f) => (f.exercises.ch = { at: 1, passed: true, tests: '<script>' }), /tests/],
      ['last chapter not a slug', (f) => (f.last = { slug: 'A B', at: 1 }), /^last\.slug/],
      ['huge code', (f) => (f.code.ch = { k1: { code: 'x'.repeat(200_001), at: 1 } }), /code\.ch\.k1\.code/],
    ];
    fc.assert(
      fc.property(learnerData, fc.constantFrom(...corruptions), (data, [, corrupt, field]) => {
        const file = plain(learnerFile(data, 'A book', new Date(NOW))) as LooseFile;
        corrupt(file);
        let error: unknown;
        try {
          parseLearnerFile(JSON.stringify(file), NOW);
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(LearnerFileError);
        expect((error as LearnerFileError).field).toMatch(field);
      }),
    );
  });

  it('is refused when it is not JSON, or far too large', () => {
    expect(() => parseLearnerFile('{', NOW)).toThrow(/not JSON/);
    expect(() => parseLearnerFile(' '.repeat(4_000_001), NOW)).toThrow(/too large/);
    expect(() =>
      parseLearnerFile(JSON.stringify({ format: LEARNER_FILE_FORMAT, version: 1, code: null }), NOW),
    ).toThrow(/^code/);
  });

  it('gives objects without a prototype: no key of the file reaches Object.prototype', () => {
    const text = `{"format":"${LEARNER_FILE_FORMAT}","version":1,"code":{"constructor":{}},"exercises":{}}`;
    const data = parseLearnerFile(text, NOW);
    expect(Object.getPrototypeOf(data.code)).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("merging two browsers' data", () => {
  it('keeps the newer of each entry, whichever side it is on, and loses nothing else', () => {
    fc.assert(
      fc.property(learnerData, learnerData, (a, b) => {
        const merged = mergeLearnerData(a, b);
        for (const side of [a, b])
          for (const [s, blocks] of Object.entries(side.code))
            for (const [key, saved] of Object.entries(blocks))
              expect(merged.code[s][key].at).toBeGreaterThanOrEqual(saved.at);
        for (const side of [a, b])
          for (const [s, result] of Object.entries(side.exercises))
            expect(merged.exercises[s].at).toBeGreaterThanOrEqual(result.at);
        // Merging again changes nothing (importing the same file twice).
        expect(plain(mergeLearnerData(merged, b))).toEqual(plain(merged));
      }),
    );
  });
});

describe('the key of an edited example', () => {
  const code = fc.string({ minLength: 1, maxLength: 60 });

  it('stays with its example when other examples are added, removed or changed around it', () => {
    fc.assert(
      fc.property(
        fc.array(code, { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.array(code, { maxLength: 4 }),
        (codes, i, added) => {
          const index = i % codes.length;
          const unique = codes.filter((c) => c === codes[index]).length === 1;
          fc.pre(unique && !added.includes(codes[index]));
          const before = blockKeys(codes)[index];
          const changed = [...added, ...codes.slice(0, index).reverse(), codes[index], ...added];
          expect(blockKeys(changed)[added.length + index]).toBe(before);
        },
      ),
    );
  });

  it("changes when the example's own code changes, and tells repeated examples apart", () => {
    fc.assert(
      fc.property(code, code, (a, b) => {
        fc.pre(a !== b);
        expect(blockKeys([a])[0]).not.toBe(blockKeys([b])[0]);
        const keys = blockKeys([a, b, a]);
        expect(new Set(keys).size).toBe(3);
        expect(keys[2]).toBe(`${keys[0]}-2`);
      }),
    );
  });
});
