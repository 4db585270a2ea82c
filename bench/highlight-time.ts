/**
 * How long highlighting every code block of the book takes: pybook's own lexers (through
 * `highlightToHtml`'s uncached path, the lexer and the HTML) against Shiki's TextMate grammars
 * tokenizing the same Python and JavaScript/TypeScript blocks. Both are timed after one warm-up
 * pass, as the median (and the fastest) of several passes in CPU time; the first (cold) pass is shown too.
 *
 * Run directly: `node --import tsx bench/highlight-time.ts [rounds]`. Prints one JSON line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHighlighter } from 'shiki';
import { INITIAL } from 'shiki/textmate';
import { CODE_LANGUAGES, highlightToHtml } from '../src/markdown/highlight/index.js';
import { median, round } from './stats.js';

const bookDir = fileURLToPath(new URL('../book/', import.meta.url));
const blocks: Array<{ lang: string; code: string }> = [];
for (const locale of ['en', 'zh-cn']) {
  for (const file of readdirSync(path.join(bookDir, locale)).filter((name) => name.endsWith('.mdx'))) {
    const source = readFileSync(path.join(bookDir, locale, file), 'utf8');
    for (const [, lang, code] of source.matchAll(/^```(\w+)[^\n]*\n([\s\S]*?)\n```$/gm)) {
      if (CODE_LANGUAGES[lang]) blocks.push({ lang, code });
    }
  }
}

const rounds = Number(process.argv[2] ?? 15);
// A line number set per call keeps highlightToHtml's memo from answering: every call lexes.
let salt = 0;
const ours = () => {
  salt++;
  for (const { lang, code } of blocks) highlightToHtml(code, lang, new Set([-salt]));
};

const SHIKI: Record<string, string> = { python: 'python', javascript: 'javascript', typescript: 'typescript' };
const shiki = await createHighlighter({ langs: Object.values(SHIKI), themes: [] });
const shikiBlocks = blocks.filter(({ lang }) => SHIKI[CODE_LANGUAGES[lang] ?? '']);
const oursOnShikisBlocks = () => {
  salt++;
  for (const { lang, code } of shikiBlocks) highlightToHtml(code, lang, new Set([-salt]));
};
const theirs = () => {
  for (const { lang, code } of shikiBlocks) {
    const grammar = shiki.getLanguage(SHIKI[CODE_LANGUAGES[lang]!]);
    let state = INITIAL;
    for (const line of code.split('\n')) state = grammar.tokenizeLine2(line, state).ruleStack;
  }
};

/**
 * The process's CPU time (user + system) per pass rather than the wall clock: the machine is
 * shared, and a pass that waits for a core would otherwise count the wait.
 */
function time(run: () => void, passes = rounds): { coldMs: number; medianMs: number; minMs: number } {
  const times: number[] = [];
  for (let i = 0; i <= passes; i++) {
    const start = process.cpuUsage();
    run();
    const { user, system } = process.cpuUsage(start);
    times.push((user + system) / 1000);
  }
  return {
    coldMs: round(times[0], 1),
    medianMs: round(median(times.slice(1)), 1),
    minMs: round(Math.min(...times.slice(1)), 1),
  };
}

const all = time(ours);
const pythonAndJs = time(oursOnShikisBlocks);
const shikiTimes = time(theirs, 3); // a pass takes seconds
console.log(
  JSON.stringify({
    blocks: blocks.length,
    pythonAndJsBlocks: shikiBlocks.length,
    oursAllBlocks: all,
    oursPythonAndJs: pythonAndJs,
    shikiPythonAndJs: shikiTimes,
    shikiOverOurs: round(shikiTimes.medianMs / pythonAndJs.medianMs, 1),
  }),
);
