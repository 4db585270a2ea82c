import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
type Jieba = {
  load(options: Record<string, string>): void;
  cutForSearch(text: string, hmm: boolean): string[];
};

const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff]+/g;

/**
 * Segments Chinese text with nodejieba. Loading jieba's full 350,000-word dictionary takes
 * seconds, which would dominate the whole build; instead we load the dictionary entries that
 * occur somewhere in the book's text. A filler entry carries the frequency of every entry left
 * out, so jieba's total (the denominator of every word's probability) is unchanged and the
 * segmentation is the same as with the full dictionary.
 */
export class ChineseSegmenter {
  private jieba?: Jieba;
  private cache = new Map<string, string[]>();

  /**
   * @param bookText the text to trim the dictionary for, read on first use; undefined loads the
   * full dictionary (watch mode: slower once, then right for any text an author writes later).
   */
  constructor(private readonly bookText: (() => string) | undefined) {}

  /** Loads the dictionary now (otherwise the first segment() does). */
  load(): void {
    this.instance();
  }

  private instance(): Jieba {
    if (this.jieba) return this.jieba;
    const jieba = loadNodejieba();
    const dictDir = path.join(
      path.dirname(require.resolve('nodejieba/package.json')),
      'submodules',
      'cppjieba',
      'dict',
    );
    const fullDict = path.join(dictDir, 'jieba.dict.utf8');
    const dict = this.bookText ? trimmedDictionary(fullDict, this.bookText()) : fullDict;
    const emptyIdf = writeCacheFile('idf.utf8', 'pybook 1.0\n');
    const emptyStop = writeCacheFile('stop.utf8', '\n');
    jieba.load({
      dict,
      hmmDict: path.join(dictDir, 'hmm_model.utf8'),
      userDict: path.join(dictDir, 'user.dict.utf8'),
      idfDict: emptyIdf,
      stopWordDict: emptyStop,
    });
    this.jieba = jieba;
    return jieba;
  }

  /**
   * Search-mode segmentation: long words and the shorter words inside them (虚拟环境 -> 虚拟, 环境,
   * 虚拟环境), by the dictionary alone. jieba's HMM would also guess words the dictionary lacks,
   * and glue a character to its neighbour (上星标 in 上星标最多的): the browser cuts a query by
   * dictionary matching, and could never find such a word by its parts.
   */
  segment(run: string): string[] {
    let pieces = this.cache.get(run);
    if (!pieces) {
      pieces = this.instance().cutForSearch(run, false);
      this.cache.set(run, pieces);
    }
    return pieces;
  }
}

/**
 * nodejieba's compiled binding. Its entry module asks node-pre-gyp where the binding is, which
 * loads some forty modules (about 30 ms of every build) to compute the path that the package's
 * own `binary.module_path` fixes: the binding is loaded from there, the entry module only when
 * it is not there.
 */
function loadNodejieba(): Jieba {
  let binding: {
    load(dict: string, hmm: string, user: string, idf: string, stop: string): void;
    cutForSearch(text: string, hmm: boolean): string[];
  };
  try {
    binding = require('nodejieba/build/Release/nodejieba.node') as typeof binding;
  } catch {
    return require('nodejieba') as Jieba;
  }
  return {
    load: (o) => binding.load(o.dict, o.hmmDict, o.userDict, o.idfDict, o.stopWordDict),
    cutForSearch: (text, hmm) => binding.cutForSearch(text, hmm),
  };
}

function cacheDir(): string {
  const dir = path.join(os.tmpdir(), 'pybook-jieba');
  mkdirSync(dir, { recursive: true });
  return dir;
}

function writeCacheFile(name: string, contents: string): string {
  const file = path.join(cacheDir(), `${createHash('sha1').update(contents).digest('hex').slice(0, 12)}-${name}`);
  if (!existsSync(file)) writeFileSync(file, contents);
  return file;
}

/**
 * Keeps the dictionary entries that can occur in the book: every pair of adjacent characters of
 * the word (or the character itself) occurs in the text. That keeps a few words that do not
 * occur, which is harmless, and is far cheaper than collecting every substring of the book.
 */
export function trimmedDictionary(fullDict: string, bookText: string): string {
  // The same book text always trims to the same dictionary: reuse it across builds.
  const known = path.join(
    cacheDir(),
    `${createHash('sha1').update(fullDict).update('\0').update(bookText).digest('hex').slice(0, 16)}-for-book.utf8`,
  );
  if (existsSync(known)) return known;
  const pieces = new Set<string>();
  for (const [run] of bookText.matchAll(CJK_RUN)) {
    for (let i = 0; i < run.length; i++) {
      pieces.add(run[i]);
      if (i + 1 < run.length) pieces.add(run.slice(i, i + 2));
    }
  }
  const mayOccur = (word: string) => {
    if (word.length === 1) return pieces.has(word);
    for (let i = 0; i + 1 < word.length; i++) if (!pieces.has(word.slice(i, i + 2))) return false;
    return true;
  };
  const kept: string[] = [];
  let droppedFrequency = 0;
  let minFrequency = Infinity;
  for (const line of readFileSync(fullDict, 'utf8').split('\n')) {
    if (!line) continue;
    const space = line.indexOf(' ');
    const word = line.slice(0, space);
    const frequency = parseInt(line.slice(space + 1), 10);
    if (frequency < minFrequency) minFrequency = frequency;
    if (mayOccur(word)) kept.push(line);
    else droppedFrequency += frequency;
  }
  // Private-use characters never occur in the book: these entries only keep jieba's statistics.
  kept.push(`\ue000 ${droppedFrequency} x`, `\ue001 ${minFrequency} x`);
  const temporary = `${known}.${process.pid}.tmp`;
  writeFileSync(temporary, `${kept.join('\n')}\n`);
  renameSync(temporary, known); // atomic: a concurrent build never reads half a dictionary
  return known;
}
