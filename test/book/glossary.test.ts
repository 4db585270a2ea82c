import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The Chinese glossary (docs/glossary.zh-cn.md) is enforced here: every wrong variant it lists is searched
 * for in the prose of book/zh-cn/*.mdx and in the strings of src/shared/i18n/zh-cn.ts. The glossary's introduction
 * describes the table format and the two rule clauses (〔语境：…〕 and 〔例外：…〕) that this file reads.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const GLOSSARY = 'docs/glossary.zh-cn.md';
const HEADER = ['English', '中文', '不用', '说明'];
const NONE = '—';
const LIST_SEPARATOR = ' / ';
/** Stands in for removed code, URLs and ids, so that text on both sides of them never joins into a match. */
const GAP = '\u0000';

interface Rule {
  /** Line of the row in the glossary. */
  row: number;
  english: string;
  /** The 中文 cell as written (backticks kept), for messages. */
  shown: string;
  /** The rendering as it appears in prose; empty when the rendering is code (code is not prose). */
  preferred: string;
  variants: string[];
  /** 〔语境：…〕: the variants only count on a line that contains one of these. */
  context: string[];
  /** 〔例外：…〕: a variant inside one of these is not flagged. */
  exceptions: string[];
}

interface Hit {
  line: number;
  variant: string;
  preferred: string;
}

// ---------------------------------------------------------------------------------------------------------
// The glossary's tables

function cells(line: string): string[] | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('|') || !trimmed.endsWith('|') || trimmed.length < 2) return null;
  return trimmed.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim());
}

function unquoteCode(text: string): string {
  return text.replace(/`/g, '');
}

function splitList(text: string): string[] {
  return text.split(LIST_SEPARATOR).map((item) => item.trim());
}

/** Parses every table of the glossary; `errors` names each malformed row or table by its line. */
function parseGlossary(text: string, file = GLOSSARY): { rules: Rule[]; errors: string[] } {
  const rules: Rule[] = [];
  const errors: string[] = [];
  const lines = text.split(/\r?\n/);
  let inFence = false;
  let tables = 0;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i])) inFence = !inFence;
    if (inFence || !lines[i].trim().startsWith('|')) continue;
    // A table: this line and the following lines that start with |.
    const start = i;
    while (i + 1 < lines.length && lines[i + 1].trim().startsWith('|')) i++;
    tables++;
    const header = cells(lines[start]);
    if (!header || header.join('|') !== HEADER.join('|')) {
      errors.push(`${file}:${start + 1}: the table's header must be | ${HEADER.join(' | ')} |`);
      continue;
    }
    const delimiter = cells(lines[start + 1] ?? '');
    if (!delimiter || delimiter.length !== HEADER.length || !delimiter.every((c) => /^:?-{3,}:?$/.test(c))) {
      errors.push(`${file}:${start + 2}: the header must be followed by a delimiter row of ${HEADER.length} cells (|---|---|---|---|)`);
      continue;
    }
    for (let r = start + 2; r <= i; r++) {
      const where = `${file}:${r + 1}`;
      const row = cells(lines[r]);
      if (!row) {
        errors.push(`${where}: a row must start and end with |`);
        continue;
      }
      if (row.length !== HEADER.length) {
        errors.push(`${where}: ${row.length} cells instead of ${HEADER.length}`);
        continue;
      }
      const [english, shown, wrong, note] = row;
      const problems: string[] = [];
      if (!english) problems.push('empty English');
      // A rendering in backticks is code: it never appears in prose, where its bare spelling is wrong.
      const isCode = /^`[^`]+`$/.test(shown);
      const preferred = isCode ? '' : shown;
      if (!unquoteCode(shown).trim() || shown === NONE) problems.push('empty 中文');
      else if (!isCode && shown.includes('`')) problems.push(`a 中文 that is partly code ("${shown}")`);
      if (shown.includes(LIST_SEPARATOR)) problems.push(`more than one rendering in 中文 ("${shown}")`);
      let variants: string[] = [];
      if (!wrong) problems.push(`empty 不用 (write ${NONE} when there is no variant)`);
      else if (wrong !== NONE) {
        variants = splitList(wrong);
        if (variants.some((v) => !v || v === NONE)) problems.push(`an empty variant in 不用 ("${wrong}")`);
        if (variants.some((v) => /[`〔〕]/.test(v))) problems.push(`a variant with a backtick or a bracket clause ("${wrong}")`);
        if (variants.includes(shown)) problems.push(`the rendering "${preferred}" is also listed as wrong`);
        if (new Set(variants).size !== variants.length) problems.push(`a variant listed twice ("${wrong}")`);
      }
      if (!note) problems.push('empty 说明');
      const context: string[] = [];
      const exceptions: string[] = [];
      const withoutClauses = note.replace(/〔([^〔〕]*)〕/g, (_all, body: string) => {
        const m = /^(语境|例外)：(.+)$/.exec(body);
        if (!m) {
          problems.push(`unknown clause 〔${body}〕 (only 〔语境：…〕 and 〔例外：…〕)`);
          return '';
        }
        const items = splitList(m[2]).map(unquoteCode);
        if (items.some((item) => !item)) problems.push(`an empty item in 〔${body}〕`);
        (m[1] === '语境' ? context : exceptions).push(...items);
        return '';
      });
      if (/[〔〕]/.test(withoutClauses)) problems.push('an unbalanced 〔 or 〕 in 说明');
      if ((context.length || exceptions.length) && !variants.length) problems.push(`a 〔语境〕 or 〔例外〕 clause without variants to apply to`);
      if (exceptions.some((x) => variants.includes(x))) problems.push('an exception that is itself a listed variant');
      if (problems.length) {
        errors.push(`${where}: ${problems.join('; ')}`);
        continue;
      }
      rules.push({ row: r + 1, english, shown, preferred, variants, context, exceptions });
    }
  }
  if (!tables) errors.push(`${file}: no table`);
  // A variant of one row may not be another row's rendering, unless the row limits it to a context.
  const renderings = new Map(rules.filter((rule) => rule.preferred).map((rule) => [rule.preferred, rule]));
  const seen = new Map<string, Rule>();
  for (const rule of rules) {
    const key = `${rule.english}|${rule.shown}`;
    if (seen.has(key)) errors.push(`${file}:${rule.row}: the same row as line ${seen.get(key)!.row}`);
    seen.set(key, rule);
    if (rule.context.length) continue;
    for (const variant of rule.variants) {
      const other = renderings.get(variant);
      if (other) errors.push(`${file}:${rule.row}: "${variant}" is wrong here but is the rendering of "${other.english}" (line ${other.row}); add a 〔语境：…〕`);
    }
  }
  return { rules, errors };
}

// ---------------------------------------------------------------------------------------------------------
// Matching

const WORD = /[A-Za-z0-9_]/;
const regexCache = new Map<string, RegExp>();

function escapeTerm(term: string): string {
  return term
    .trim()
    .split(/\s+/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('\\s*');
}

/** A term as a regular expression: spaces match any spacing, Latin letters any case, Latin edges whole words. */
function termPattern(term: string): string {
  const t = term.trim();
  return `${WORD.test(t[0]) ? '(?<![A-Za-z0-9_])' : ''}${escapeTerm(t)}${WORD.test(t.at(-1)!) ? '(?![A-Za-z0-9_])' : ''}`;
}

function regex(source: string): RegExp {
  let re = regexCache.get(source);
  if (!re) regexCache.set(source, (re = new RegExp(source, 'giu')));
  re.lastIndex = 0;
  return re;
}

type Span = [number, number];

function spans(source: string, text: string): Span[] {
  return [...text.matchAll(regex(source))].map((m) => [m.index, m.index + m[0].length] as Span);
}

// ---------------------------------------------------------------------------------------------------------
// What is prose

interface ScanLine {
  /** The prose of the line: code, link targets, ids, URLs, comments and emphasis markers removed. */
  prose: string;
  /** The line for 〔语境〕 rules: as prose, but with the text of inline code kept. */
  context: string;
}

const EMPTY: ScanLine = { prose: '', context: '' };

/** Inline code spans (CommonMark: a run of n backticks up to the next run of exactly n). */
function splitInlineCode(line: string): { prose: string; context: string } {
  let prose = '';
  let context = '';
  let i = 0;
  while (i < line.length) {
    if (line[i] !== '`') {
      prose += line[i];
      context += line[i];
      i++;
      continue;
    }
    let j = i;
    while (line[j] === '`') j++;
    const run = j - i;
    let k = j;
    let close = -1;
    while (k < line.length) {
      if (line[k] !== '`') {
        k++;
        continue;
      }
      let m = k;
      while (line[m] === '`') m++;
      if (m - k === run) {
        close = k;
        break;
      }
      k = m;
    }
    if (close < 0) {
      // No closing run: the backticks are literal text.
      prose += line.slice(i, j);
      context += line.slice(i, j);
      i = j;
      continue;
    }
    prose += GAP;
    context += `${GAP}${line.slice(j, close)}${GAP}`;
    i = close + run;
  }
  return { prose, context };
}

function stripMarkup(text: string): string {
  return text
    .replace(/\{\/\*.*?\*\/\}/g, GAP) // MDX comment
    .replace(/<!--.*?-->/g, GAP) // HTML comment
    .replace(/\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, `]${GAP}`) // link target
    .replace(/^(\[[^\]]+\]:)\s*\S+.*$/, `$1${GAP}`) // link reference definition
    .replace(/\{#[^}]*\}/g, GAP) // heading id
    .replace(/<?(?:https?:\/\/|mailto:)[^\s>)\]]*>?/g, GAP); // URL
}

function inline(line: string): ScanLine {
  const { prose, context } = splitInlineCode(line);
  return { prose: stripMarkup(prose).replace(/\*/g, ''), context: stripMarkup(context) };
}

const FRONT_MATTER_SHOWN = /^(title|description|sidebar_label):(.*)$/;

/** The lines of a chapter (.mdx) as prose, one entry per source line; code fences and code spans removed. */
function mdxLines(text: string): ScanLine[] {
  const lines = text.split(/\r?\n/);
  const out: ScanLine[] = lines.map(() => EMPTY);
  let i = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, n) => n > 0 && l.trim() === '---');
    if (end > 0) {
      for (let n = 1; n < end; n++) {
        const m = FRONT_MATTER_SHOWN.exec(lines[n]);
        // title, description and sidebar_label are shown on the page; keywords (search terms) are not.
        if (m) out[n] = inline(`${GAP}${m[2]}`);
      }
      i = end + 1;
    }
  }
  let fence: { char: string; length: number } | null = null;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (fence) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1][0] === fence.char && close[1].length >= fence.length) fence = null;
      continue;
    }
    const open = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
    // An info string starts with a word or `{` (```python, ```output, ```ts title=…); a backtick fence's
    // info string has no backtick; `~~~~^^^^` (a traceback marker) is not a fence.
    if (open && /^\s*([\w{].*)?$/.test(open[2]) && !(open[1][0] === '`' && open[2].includes('`'))) {
      fence = { char: open[1][0], length: open[1].length };
      continue;
    }
    out[i] = inline(line);
  }
  return out;
}

/** The lines of the interface strings (.ts): only the text of single-quoted string literals counts. */
function tsLines(text: string): ScanLine[] {
  return text.split(/\r?\n/).map((line) => {
    const strings = [...line.matchAll(/'((?:[^'\\]|\\.)*)'/g)].map((m) => m[1]);
    const joined = strings.join(GAP);
    return { prose: joined, context: joined };
  });
}

// ---------------------------------------------------------------------------------------------------------
// The scanner

/** Every wrong variant on the given lines (1-based line numbers), in line order. */
function scanLines(lines: ScanLine[], rules: Rule[]): Hit[] {
  const hits: Hit[] = [];
  const renderingSources = [...new Set(rules.filter((rule) => rule.preferred).map((rule) => termPattern(rule.preferred)))];
  lines.forEach(({ prose, context }, index) => {
    if (!prose.trim()) return;
    // Occurrences of every listed rendering on this line: a variant inside a longer one is part of a right word.
    const legitimate: Span[] = renderingSources.flatMap((source) => spans(source, prose));
    const found: Array<{ span: Span; variant: string; preferred: string }> = [];
    for (const rule of rules) {
      if (!rule.variants.length) continue;
      if (rule.context.length && !rule.context.some((word) => spans(termPattern(word), context).length)) continue;
      const allowed = [
        ...legitimate,
        ...rule.exceptions.flatMap((x) => spans(termPattern(x), prose)),
        // A first-use gloss: the rendering, then the variant in brackets, 代码检查工具（linter）.
        ...(rule.preferred ? rule.variants.flatMap((v) => spans(`${escapeTerm(rule.preferred)}\\s*[（(]\\s*${termPattern(v)}`, prose)) : []),
      ];
      for (const variant of rule.variants) {
        for (const [s, e] of spans(termPattern(variant), prose)) {
          if (allowed.some(([a, b]) => a <= s && e <= b && b - a > e - s)) continue;
          found.push({ span: [s, e], variant, preferred: rule.shown });
        }
      }
    }
    // Where one variant is part of a longer variant (代码检查 in 代码检查器), report the longer one only.
    const kept = found.filter(({ span: [s, e] }) => !found.some(({ span: [a, b] }) => a <= s && e <= b && b - a > e - s));
    kept.sort((x, y) => x.span[0] - y.span[0]);
    const once = new Set<string>();
    for (const { span, variant, preferred } of kept) {
      const key = `${span[0]}:${span[1]}:${variant}`;
      if (once.has(key)) continue;
      once.add(key);
      hits.push({ line: index + 1, variant, preferred });
    }
  });
  return hits;
}

function format(file: string, hit: Hit): string {
  return `${file}:${hit.line}: "${hit.variant}" → "${hit.preferred}"`;
}

/** Every file the glossary applies to, relative to the repository root. */
function scannedFiles(): string[] {
  const chapters = readdirSync(path.join(root, 'book', 'zh-cn'))
    .filter((name) => name.endsWith('.mdx'))
    .sort()
    .map((name) => `book/zh-cn/${name}`);
  return [...chapters, 'src/shared/i18n/zh-cn.ts'];
}

function scanFile(file: string, rules: Rule[]): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const lines = file.endsWith('.ts') ? tsLines(text) : mdxLines(text);
  return scanLines(lines, rules).map((hit) => format(file, hit));
}

// ---------------------------------------------------------------------------------------------------------
// The tests

const glossary = parseGlossary(readFileSync(path.join(root, GLOSSARY), 'utf8'));

describe('the Chinese glossary (docs/glossary.zh-cn.md)', () => {
  it('has only well-formed tables and rows', () => {
    expect(glossary.errors).toEqual([]);
    expect(glossary.rules.length).toBeGreaterThan(0);
  });

  it('is followed by book/zh-cn/*.mdx and src/shared/i18n/zh-cn.ts: no listed variant appears in their prose', () => {
    const hits = scannedFiles().flatMap((file) => scanFile(file, glossary.rules));
    if (hits.length) {
      throw new Error(`${hits.length} non-preferred rendering${hits.length === 1 ? '' : 's'} (see ${GLOSSARY}):\n${hits.join('\n')}`);
    }
  });
});

describe('the glossary scanner', () => {
  const table = (...rows: string[]) => ['| English | 中文 | 不用 | 说明 |', '|---|---|---|---|', ...rows].join('\n');
  const { rules, errors } = parseGlossary(
    table(
      '| linter | 代码检查工具 | 代码检查 / linter | test row |',
      '| yield | 产生 | 产出 | 〔语境：yield / 生成器〕 test row |',
      '| floor division | 向下取整除法 | 整除 | 〔语境：//〕〔例外：能整除〕 test row |',
      '| the dataclasses module | `dataclasses` | dataclasses | test row |',
    ),
    'synthetic.md',
  );
  const scan = (text: string) => scanLines(mdxLines(text), rules).map((hit) => format('x.mdx', hit));

  it('reads the synthetic glossary', () => {
    expect(errors).toEqual([]);
    expect(rules.map((r) => [r.preferred, r.variants, r.context, r.exceptions])).toEqual([
      ['代码检查工具', ['代码检查', 'linter'], [], []],
      ['产生', ['产出'], ['yield', '生成器'], []],
      ['向下取整除法', ['整除'], ['//'], ['能整除']],
      ['', ['dataclasses'], [], []],
    ]);
  });

  it('flags a variant in prose with its line, but not in a code fence, inline code or the preferred form', () => {
    const text = [
      '---', // 1
      'title: 示例', // 2
      'keywords: [代码检查]', // 3: search keywords are not prose
      '---', // 4
      '', // 5
      '这一行用了代码检查，应当标出。', // 6: flagged
      '```python', // 7
      '# 代码检查 inside a fence', // 8
      '```', // 9
      '行内代码 `代码检查` 和 ``a `linter` b`` 不算。', // 10
      '推荐写法是代码检查工具，也可以写**代码检查工具**（linter）。', // 11: preferred form and gloss
      '链接 [工具](./x.mdx#linter) 的目标不算，{#linter} 也不算。', // 12
      '最后再用一次 linter 和 Linter，以及 linters。', // 13: two hits (any case), not the plural
      '模块名是代码：`dataclasses` 对，dataclasses 不对。', // 14: a rendering that is code
    ].join('\n');
    expect(scan(text)).toEqual([
      'x.mdx:6: "代码检查" → "代码检查工具"',
      'x.mdx:13: "linter" → "代码检查工具"',
      'x.mdx:13: "linter" → "代码检查工具"',
      'x.mdx:14: "dataclasses" → "`dataclasses`"',
    ]);
  });

  it('applies a 〔语境〕 rule only on lines with the context, and an 〔例外〕 everywhere', () => {
    const text = [
      '生成器每次产出一个值。', // 1: flagged (context 生成器)
      '`yield` 把值产出给调用方。', // 2: flagged (context in inline code)
      '这个项目的产出很高。', // 3: no context
      '`7 // 2` 是整除。', // 4: flagged (context //)
      '`6 // 2` 时能整除。', // 5: exception
      '10 能被 5 整除。', // 6: no context
      '~~~ts', // 7
      'const s = "生成器产出";', // 8: inside a tilde fence
      '~~~', // 9
      '           ~~~~~~^^^^', // 10: a traceback marker, not a fence
      '生成器又产出一次。', // 11: flagged, so the marker did not open a fence
    ].join('\n');
    expect(scan(text)).toEqual([
      'x.mdx:1: "产出" → "产生"',
      'x.mdx:2: "产出" → "产生"',
      'x.mdx:4: "整除" → "向下取整除法"',
      'x.mdx:11: "产出" → "产生"',
    ]);
  });

  it('reads only the string literals of the interface file', () => {
    const ts = ["  codeOutput: '输出',", "  linter: '代码检查工具',", "  note: '请用代码检查',"].join('\n');
    expect(scanLines(tsLines(ts), rules).map((hit) => format('zh.ts', hit))).toEqual(['zh.ts:3: "代码检查" → "代码检查工具"']);
  });

  it('reports malformed rows and tables with their lines', () => {
    const bad = parseGlossary(
      [
        '| English | 中文 | 不用 | 说明 |', // 1
        '|---|---|---|---|', // 2
        '| three | cells | only |', // 3: three cells
        '| a | 甲 / 乙 | 丙 | two renderings |', // 4
        '| b | 乙 | 乙 | the rendering listed as wrong |', // 5
        '| c | 丙 | 丁 | 〔范围：x〕 an unknown clause |', // 6
        '| d | 丁 |  | empty 不用 |', // 7
        '| e | 戊 | — | 〔语境：x〕 a rule without variants |', // 8
        '| f | 己 | 庚 | an unbalanced 〔语境：x |', // 9
        '| g | 庚 | 辛 | the rendering of the next row, without a context |', // 10
        '| h | 辛 | 壬 | fine |', // 11
        '| i | 壬 | 癸 /  / 子 | an empty variant |', // 12
        '| j | 癸 | 子 | no closing bar', // 13
        '', // 14
        '| English | Chinese | Wrong | Note |', // 15: wrong header
        '|---|---|---|---|', // 16
      ].join('\n'),
      'bad.md',
    );
    expect(bad.errors.map((e) => e.split(': ')[0])).toEqual([
      'bad.md:3',
      'bad.md:4',
      'bad.md:5',
      'bad.md:6',
      'bad.md:7',
      'bad.md:8',
      'bad.md:9',
      'bad.md:12',
      'bad.md:13',
      'bad.md:15',
      'bad.md:10',
    ]);
    expect(bad.rules.map((r) => r.english)).toEqual(['g', 'h']);
  });
});
