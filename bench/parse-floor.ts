/**
 * The floor under a cold build: how long the design's parser alone (remark-parse + remark-mdx +
 * remark-directive + front matter, fence bodies hidden as the compiler does) takes for the book's
 * chapters, in a fresh process; and whether two processes, each parsing half the chapters, finish
 * sooner than one parsing all of them (they do not on this 2-vCPU machine). Beside it, pybook's
 * parser (src/markdown/parse: the same plugins plus GFM tables, with the table shortcut) on the same text.
 *
 * Run directly (`node --import tsx bench/parse-floor.ts [all|even|odd|pybook]`) it parses and prints one
 * JSON line; `measureParseFloor()` runs it in child processes for the bench.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { root } from './build-bench.js';
import { round } from './stats.js';

export interface ParseFloor {
  chapters: number;
  characters: number;
  /** One process parsing every chapter (module loading excluded). */
  allMs: number;
  /** Two processes at once, each parsing every other chapter: the slower one's time. */
  twoHalvesMs: number;
  /** pybook's parser, one process parsing every chapter. */
  pybookMs: number;
}

type Part = 'all' | 'even' | 'odd' | 'pybook';

interface ChildResult {
  chapters: number;
  characters: number;
  parseMs: number;
}

async function parseChapters(part: Part): Promise<ChildResult> {
  const [
    { unified },
    { default: remarkParse },
    { default: remarkFrontmatter },
    { default: remarkMdx },
    { default: remarkDirective },
  ] = await Promise.all([
    import('unified'),
    import('remark-parse'),
    import('remark-frontmatter'),
    import('remark-mdx'),
    import('remark-directive'),
  ]);
  const { parseWithCodeBodiesHidden } = await import('../src/markdown/hide-code-bodies.js');
  const { escapeHeadingIds } = await import('../src/markdown/plugins/heading-ids.js');
  const { createChapterParser } = await import('../src/markdown/parse/parser.js');
  const parser =
    part === 'pybook'
      ? createChapterParser()
      : unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkMdx).use(remarkDirective);
  const sources: string[] = [];
  for (const locale of ['en', 'zh-cn']) {
    const folder = path.join(root, 'book', locale);
    for (const name of readdirSync(folder)
      .filter((n) => n.endsWith('.mdx'))
      .sort())
      sources.push(escapeHeadingIds(readFileSync(path.join(folder, name), 'utf8')));
  }
  const mine = sources.filter((_, i) => part === 'all' || part === 'pybook' || (i % 2 === 0) === (part === 'even'));
  const started = performance.now();
  for (const source of mine) parseWithCodeBodiesHidden(source, (text) => parser.parse(text));
  return {
    chapters: mine.length,
    characters: mine.reduce((sum, s) => sum + s.length, 0),
    parseMs: performance.now() - started,
  };
}

function runChild(part: Part): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), part], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as ChildResult)
        : reject(new Error(`parse-floor ${part} exited with ${code}`)),
    );
  });
}

export async function measureParseFloor(): Promise<ParseFloor> {
  const all = await runChild('all');
  const halves = await Promise.all([runChild('even'), runChild('odd')]);
  const pybook = await runChild('pybook');
  return {
    chapters: all.chapters,
    characters: all.characters,
    allMs: round(all.parseMs),
    twoHalvesMs: round(Math.max(...halves.map((h) => h.parseMs))),
    pybookMs: round(pybook.parseMs),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const part = (process.argv[2] ?? 'all') as Part;
  process.stdout.write(`${JSON.stringify(await parseChapters(part))}\n`);
}
