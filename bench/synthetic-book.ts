/**
 * Generates a book of N chapters (each in en and zh-cn) in a folder of its own, with a
 * book.config.json copied from the real one, so build cost can be measured against book size.
 * Chapters look like real ones: front matter, prose with inline code and emphasis, `##`/`###`
 * headings (zh-cn with the English ids), Python/JavaScript code with output blocks, an
 * admonition, a list, and links to other chapters (some with anchors).
 * Content is deterministic (seeded), so two runs build the same book.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const CHAPTERS_PER_CATEGORY = 10;

/** Mulberry32: a tiny seeded generator, so the same size always yields the same book. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOPICS = [
  'lists',
  'dictionaries',
  'sets',
  'strings',
  'functions',
  'classes',
  'modules',
  'exceptions',
  'files',
  'iterators',
  'generators',
  'decorators',
];
const TOPICS_ZH = [
  '列表',
  '字典',
  '集合',
  '字符串',
  '函数',
  '类',
  '模块',
  '异常',
  '文件',
  '迭代器',
  '生成器',
  '装饰器',
];

const SENTENCES_EN = [
  'In JavaScript you would reach for an array here; Python offers a list that behaves much the same way.',
  'The difference matters once you start mutating values that other parts of the program still hold.',
  'Python favours one obvious way to do it, so the standard library covers most of what npm packages do in Node.',
  'Indentation is part of the syntax: a block starts after a colon and ends where the indentation does.',
  'Unlike `undefined` and `null`, Python has a single `None` value, and comparing with `is None` is idiomatic.',
  'Keyword arguments make calls self-documenting, much like passing an options object in JavaScript.',
  'When in doubt, open the REPL with `python3` and try the expression; it answers faster than any search.',
  'A **comprehension** replaces the `map` and `filter` chains you may be used to, and is usually easier to read.',
  'Errors are exceptions with a type hierarchy, and `try`/`except` catches them by type rather than by inspecting a message.',
  'The `len()` built-in works on every sized collection, where JavaScript spreads the job over `.length` and `.size`.',
];

const SENTENCES_ZH = [
  '在 JavaScript 中你会在这里使用数组；Python 提供的列表用法非常相似。',
  '当你修改的值仍被程序的其他部分引用时，这种差异就变得重要了。',
  'Python 推崇“只有一种显而易见的做法”，标准库覆盖了 Node 中很多 npm 包的功能。',
  '缩进是语法的一部分：代码块在冒号之后开始，在缩进结束处结束。',
  '与 `undefined` 和 `null` 不同，Python 只有一个 `None`，惯用写法是 `is None` 比较。',
  '关键字参数让调用一目了然，就像在 JavaScript 里传入一个选项对象。',
  '拿不准的时候，用 `python3` 打开交互式解释器试一试，比搜索更快得到答案。',
  '**推导式** 取代了你熟悉的 `map` 和 `filter` 链式调用，通常也更易读。',
  '错误是带有类型层次的异常，`try`/`except` 按类型捕获，而不是检查消息文本。',
  '内置函数 `len()` 适用于所有有长度的集合，而 JavaScript 把这件事分给了 `.length` 和 `.size`。',
];

export const slugOf = (n: number) => `chapter-${String(n).padStart(4, '0')}`;

function paragraph(random: () => number, sentences: string[], count: number): string {
  const picked: string[] = [];
  for (let i = 0; i < count; i += 1) picked.push(sentences[Math.floor(random() * sentences.length)]);
  return picked.join(sentences === SENTENCES_ZH ? '' : ' ');
}

function codeExample(n: number, section: number): string {
  const name = `items_${n}_${section}`;
  return [
    '```javascript',
    `const ${name.replace(/_/g, '')} = [3, 1, 2].map((x) => x * ${section + 1});`,
    `console.log(${name.replace(/_/g, '')}.join(", "));`,
    '```',
    '',
    '```output',
    `${3 * (section + 1)}, ${section + 1}, ${2 * (section + 1)}`,
    '```',
    '',
    '```python title="example.py"',
    `${name} = [x * ${section + 1} for x in [3, 1, 2]]`,
    `print(", ".join(str(x) for x in ${name}))`,
    '```',
    '',
    '```output',
    `${3 * (section + 1)}, ${section + 1}, ${2 * (section + 1)}`,
    '```',
  ].join('\n');
}

/** One chapter's MDX in one language. `total` bounds the links so that every link resolves. */
export function chapterSource(n: number, total: number, locale: 'en' | 'zh-cn'): string {
  const random = seeded(n * 7919 + (locale === 'en' ? 1 : 2));
  const zh = locale === 'zh-cn';
  const topic = (zh ? TOPICS_ZH : TOPICS)[n % TOPICS.length];
  const sentences = zh ? SENTENCES_ZH : SENTENCES_EN;
  const linkTo = () => 1 + Math.floor(random() * total);
  const lines: string[] = [
    '---',
    `title: ${JSON.stringify(zh ? `第 ${n} 章：${topic}` : `Chapter ${n}: working with ${topic}`)}`,
    `description: ${JSON.stringify(zh ? `第 ${n} 章对照 JavaScript 讲解 Python 的${topic}。` : `Chapter ${n} compares Python ${topic} with their JavaScript counterparts.`)}`,
    `keywords: [${TOPICS[n % TOPICS.length]}, python, javascript]`,
    '---',
    '',
    paragraph(random, sentences, 3),
    '',
  ];
  for (let section = 1; section <= 4; section += 1) {
    const target = linkTo();
    lines.push(
      zh
        ? `## 第 ${section} 节：${topic}的用法 {#section-${section}}`
        : `## Section ${section}: using ${topic} {#section-${section}}`,
      '',
      `${paragraph(random, sentences, 3)} ${zh ? '参见' : 'See'} [${zh ? `第 ${target} 章` : `chapter ${target}`}](./${slugOf(target)}.mdx).`,
      '',
      codeExample(n, section),
      '',
      zh ? `### 细节 {#details-${section}}` : `### Details {#details-${section}}`,
      '',
      paragraph(random, sentences, 2),
      '',
      `- ${paragraph(random, sentences, 1)}`,
      `- ${zh ? '延伸阅读' : 'Further reading'}: [${zh ? '相关小节' : 'a related section'}](./${slugOf(linkTo())}.mdx#section-${1 + (section % 4)})`,
      `- ${paragraph(random, sentences, 1)}`,
      '',
    );
    if (section === 2) {
      lines.push(
        zh ? ':::tip[来自 JavaScript]' : ':::tip[Coming from JavaScript]',
        paragraph(random, sentences, 2),
        ':::',
        '',
      );
    }
  }
  return lines.join('\n');
}

export interface SyntheticBook {
  dir: string;
  configPath: string;
  chapters: number;
}

/**
 * Writes a book of `chapters` chapters (en + zh-cn) into `dir` and returns its config path.
 * Categories start expanded (the default) unless `collapsed` is set.
 */
export function writeSyntheticBook(
  dir: string,
  chapters: number,
  realConfigPath: string,
  collapsed = false,
): SyntheticBook {
  const config = JSON.parse(readFileSync(realConfigPath, 'utf8')) as Record<string, unknown>;
  delete config.$schema;
  // The real book's home page names its project chapters, which a generated book does not have.
  delete config.home;
  const sidebar = [];
  for (let first = 1; first <= chapters; first += CHAPTERS_PER_CATEGORY) {
    const items: string[] = [];
    for (let n = first; n < first + CHAPTERS_PER_CATEGORY && n <= chapters; n += 1) items.push(slugOf(n));
    const part = Math.ceil(first / CHAPTERS_PER_CATEGORY);
    sidebar.push({
      type: 'category',
      label: { en: `Part ${part}`, 'zh-cn': `第 ${part} 部分` },
      items,
      ...(collapsed ? { collapsed } : {}),
    });
  }
  Object.assign(config, { contentDir: 'book', staticDir: 'book/static', sidebar });
  for (const locale of ['en', 'zh-cn'] as const) {
    const folder = path.join(dir, 'book', locale);
    mkdirSync(folder, { recursive: true });
    for (let n = 1; n <= chapters; n += 1)
      writeFileSync(path.join(folder, `${slugOf(n)}.mdx`), chapterSource(n, chapters, locale));
  }
  mkdirSync(path.join(dir, 'book', 'static'), { recursive: true });
  const configPath = path.join(dir, 'book.config.json');
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
  return { dir, configPath, chapters };
}
