import elasticlunr from 'elasticlunr';

/**
 * The one tokenizer that both the index build (Node) and the query (browser) use, so a query
 * is cut exactly as the text it should find. Chinese runs are handed to a segmenter: jieba at
 * build time, dictionary matching against the index's own vocabulary in the browser.
 */
export type CjkSegmenter = (run: string) => string[];

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const TOKEN = /[\u3400-\u9fff\uf900-\ufaff]+|[a-z0-9]+(?:['’][a-z]+)?/g;

/** Chinese function words and particles too common to help find a chapter. */
export const ZH_STOP_WORDS: ReadonlySet<string> = new Set([
  '的',
  '了',
  '是',
  '在',
  '和',
  '与',
  '也',
  '就',
  '都',
  '而',
  '及',
  '或',
  '一个',
  '这',
  '那',
  '你',
  '我',
  '它',
  '们',
  '会',
  '把',
  '被',
  '让',
  '给',
  '吗',
  '吧',
  '呢',
  '啊',
  '很',
  '还',
  '对',
  '中',
  '上',
  '下',
  '时',
  '为',
  '以',
  '之',
  '其',
  '等',
  '并',
  '可以',
  '这个',
  '那个',
  '这样',
  '如果',
  '但是',
  '因为',
  '所以',
  '没有',
  '不是',
]);
const EN_STOP_WORDS = new Set(
  Object.keys((elasticlunr as unknown as { defaultStopWords: Record<string, boolean> }).defaultStopWords),
);

/** Stems by word: a book repeats its words, and the stemmer (a chain of regular expressions) is slow. */
const stems = new Map<string, string | undefined>();

export function normalizeLatin(word: string): string | undefined {
  if (stems.has(word)) return stems.get(word);
  const plain = word.replace(/['’][a-z]+$/, '');
  const stem = !plain || EN_STOP_WORDS.has(plain) ? undefined : elasticlunr.stemmer(plain);
  if (stems.size >= 100_000) stems.clear();
  stems.set(word, stem);
  return stem;
}

/**
 * JavaScript keywords that are English stop words. In prose they are noise, but in code they are
 * what a JavaScript engineer searches for (`for...of`, `if`/`else`, `this`): the comparisons'
 * JavaScript (field `j`) keeps them as they are, and so do queries (they match nothing else).
 */
const JS_KEYWORDS: ReadonlySet<string> = new Set([
  'as',
  'do',
  'else',
  'for',
  'from',
  'get',
  'if',
  'in',
  'let',
  'of',
  'this',
  'while',
  'with',
]);

/** @param keepKeywords keep the JavaScript keywords that are stop words (code and queries). */
export function tokenize(text: string, segment: CjkSegmenter, keepKeywords = false): string[] {
  const tokens: string[] = [];
  for (const [word] of text.toLowerCase().matchAll(TOKEN)) {
    if (CJK.test(word[0])) {
      for (const piece of segment(word)) if (!ZH_STOP_WORDS.has(piece)) tokens.push(piece);
    } else if (keepKeywords && JS_KEYWORDS.has(word)) {
      tokens.push(word);
    } else {
      const token = normalizeLatin(word);
      if (token) tokens.push(token);
    }
  }
  return tokens;
}

/**
 * Browser-side segmentation: forward maximum matching against the Chinese words of the index
 * (which jieba produced for this book), falling back to single characters.
 */
export function maximumMatchSegmenter(vocabulary: Set<string>, longest: number): CjkSegmenter {
  return (run) => {
    const pieces: string[] = [];
    let i = 0;
    while (i < run.length) {
      let n = Math.min(longest, run.length - i);
      while (n > 1 && !vocabulary.has(run.slice(i, i + n))) n--;
      pieces.push(run.slice(i, i + n));
      i += n;
    }
    return pieces;
  };
}
