import { describe, expect, it } from 'vitest';
import { CODE_LANGUAGES, highlightToHtml } from '../../src/markdown/highlight/index.js';
import { lexBash } from '../../src/markdown/highlight/bash.js';
import { lexJavaScript } from '../../src/markdown/highlight/javascript.js';
import { lexJson } from '../../src/markdown/highlight/json.js';
import { lexPython } from '../../src/markdown/highlight/python.js';
import { lexToml } from '../../src/markdown/highlight/toml.js';
import type { Token } from '../../src/markdown/highlight/tokens.js';
import { bookChapters } from '../helpers/book-chapters.js';

/** The coloured tokens only, as `class:text`, in order. */
const coloured = (tokens: Token[]) => tokens.filter((t) => t.cls).map((t) => `${t.cls}:${t.text}`);
const classOf = (tokens: Token[], text: string) => tokens.find((t) => t.text === text)?.cls;

describe('Python', () => {
  it('colours keywords, definitions, calls, attributes, built-ins, classes, self and literals', () => {
    const tokens = lexPython(
      'class Cart(Base):\n    def add(self, item=None):\n        print(len(self.items), True)\n        self.items.append(Item(item))',
    );
    expect(coloured(tokens)).toEqual([
      'keyword:class',
      'class:Cart',
      'class:Base',
      'keyword:def',
      'function:add',
      'self:self',
      'literal:None',
      'builtin:print',
      'builtin:len',
      'self:self',
      'attr:items',
      'literal:True',
      'self:self',
      'attr:items',
      'function:append',
      'class:Item',
    ]);
  });

  it('colours the code inside f-string fields, their braces, conversion and spec as punctuation, and keeps {{ inside the string', () => {
    expect(lexPython('f"{{x}} = {value!r:>{width}} done"')).toEqual([
      { text: 'f"{{x}} = ', cls: 'string' },
      { text: '{', cls: 'punct' },
      { text: 'value' },
      { text: '!r:>{', cls: 'punct' },
      { text: 'width' },
      { text: '}}', cls: 'punct' },
      { text: ' done"', cls: 'string' },
    ]);
    expect(coloured(lexPython("f\"{len(items) * 100:.1f}% {'yes' if ok else 'no'}\""))).toEqual([
      'string:f"',
      'punct:{',
      'builtin:len',
      'number:100',
      'punct::.1f}',
      'string:% ',
      'punct:{',
      "string:'yes'",
      'keyword:if',
      'keyword:else',
      "string:'no'",
      'punct:}',
      'string:"',
    ]);
  });

  it('f-string fields: the colon of a slice or a dict and != stay in the expression; {x=} echoes it', () => {
    expect(coloured(lexPython('f"{xs[1:2]}{d[\'k\']:>4}{a != b}{total=}{n = :,}"'))).toEqual([
      'string:f"',
      'punct:{',
      'number:1',
      'number:2',
      'punct:}{',
      "string:'k'",
      'punct::>4}{',
      'punct:}{',
      'punct:=}{',
      'punct: = :,}',
      'string:"',
    ]);
    // A field left open at the end of a single-line string stops at the line's end.
    expect(
      lexPython('f"{x\ny = 1')
        .map((t) => t.text)
        .join(''),
    ).toBe('f"{x\ny = 1');
    expect(coloured(lexPython('f"{x\ny = 1'))).toEqual(['string:f"', 'punct:{', 'number:1']);
  });

  it('reads string prefixes, triple quotes across lines and escaped quotes', () => {
    expect(coloured(lexPython('rb"\\d" + """a\n\'b\'\n"""'))).toEqual(['string:rb"\\d"', 'string:"""a\n\'b\'\n"""']);
    expect(coloured(lexPython("'it\\'s' # done"))).toEqual(["string:'it\\'s'", 'comment:# done']);
    // A single-line string left open ends with its line.
    expect(coloured(lexPython('x = "open\nprint(x)'))).toEqual(['string:"open', 'builtin:print']);
    expect(coloured(lexJavaScript("const s = 'open\nf();"))).toEqual(['keyword:const', "string:'open", 'function:f']);
  });

  it('numbers of every base, with separators, exponents and imaginary parts', () => {
    expect(coloured(lexPython('x = 1_000 + 0xFF + 0b1010 + 3.5e-2 + 2j + .5'))).toEqual([
      'number:1_000',
      'number:0xFF',
      'number:0b1010',
      'number:3.5e-2',
      'number:2j',
      'number:.5',
    ]);
  });

  it('decorators, and soft keywords only where they start a statement', () => {
    const tokens = lexPython(
      '@app.route("/")\ndef home():\n    match = re.match(p, s)\n    match command:\n        case "go":\n            pass',
    );
    expect(classOf(tokens, '@app.route')).toBe('meta');
    expect(coloured(tokens).filter((t) => t.startsWith('keyword:'))).toEqual([
      'keyword:def',
      'keyword:match',
      'keyword:case',
      'keyword:pass',
    ]);
    expect(coloured(tokens)).toContain('function:match'); // re.match(...)
  });

  it('a keyword argument or assignment named like a built-in is not coloured as one', () => {
    expect(coloured(lexPython('parser.add_argument("--n", type=int)\nlist = []'))).toEqual([
      'function:add_argument',
      'string:"--n"',
      'builtin:int',
    ]);
  });

  it('REPL prompts are marked only in a session that has them', () => {
    expect(coloured(lexPython('>>> 1 + 1\n2'))).toEqual(['meta:>>>', 'number:1', 'number:1', 'number:2']);
    expect(coloured(lexPython('x = ...'))).toEqual([]);
    expect(coloured(lexPython('def f(): ...\nvalue = f()'))).toEqual(['keyword:def', 'function:f', 'function:f']);
  });
});

describe('JavaScript and TypeScript', () => {
  it('colours declarations, calls, properties, object keys, built-ins and this', () => {
    const tokens = lexJavaScript(
      'class Cart extends Base {\n  add(item) { this.items.push(item); console.log({ count: this.items.length }); }\n}\nfunction total() { return new Map(); }',
    );
    expect(coloured(tokens)).toEqual([
      'keyword:class',
      'class:Cart',
      'keyword:extends',
      'class:Base',
      'function:add',
      'self:this',
      'attr:items',
      'function:push',
      'builtin:console',
      'function:log',
      'attr:count',
      'self:this',
      'attr:items',
      'attr:length',
      'keyword:function',
      'function:total',
      'keyword:return',
      'keyword:new',
      'builtin:Map',
    ]);
  });

  it('colours the code inside template fields, nested ones too, and their ${ and } as punctuation', () => {
    expect(lexJavaScript('`a ${b ? `c${d}` : "}"} e`')).toEqual([
      { text: '`a ', cls: 'string' },
      { text: '${', cls: 'punct' },
      { text: 'b ? ' },
      { text: '`c', cls: 'string' },
      { text: '${', cls: 'punct' },
      { text: 'd' },
      { text: '}', cls: 'punct' },
      { text: '`', cls: 'string' },
      { text: ' : ' },
      { text: '"}"', cls: 'string' },
      { text: '}', cls: 'punct' },
      { text: ' e`', cls: 'string' },
    ]);
    expect(coloured(lexJavaScript('`${total.toFixed(2)} ${count / 2} items`'))).toEqual([
      'string:`',
      'punct:${',
      'function:toFixed',
      'number:2',
      'punct:}',
      'string: ',
      'punct:${',
      'number:2',
      'punct:}',
      'string: items`',
    ]);
    expect(coloured(lexJavaScript('`${x as string}`', true))).toContain('builtin:string');
  });

  it('tells a regular expression from a division', () => {
    expect(classOf(lexJavaScript('const re = /[/]\\d+/gi;'), '/[/]\\d+/gi')).toBe('regexp');
    expect(coloured(lexJavaScript('const half = total / 2 / count;'))).toEqual(['keyword:const', 'number:2']);
    expect(classOf(lexJavaScript('return /x/.test(s)'), '/x/')).toBe('regexp');
  });

  it('divides after an increment or a decrement', () => {
    expect(coloured(lexJavaScript('const a = i++ / 2, b = j-- / 3 / k;'))).toEqual([
      'keyword:const',
      'number:2',
      'number:3',
    ]);
    expect(coloured(lexJavaScript('x = ++i / 2 / n'))).toEqual(['number:2']);
  });

  it('divides after the ) of an expression, but reads a regular expression after the ) of if, while and for', () => {
    expect(coloured(lexJavaScript('const r = (x) / y / 2; const m = f(a) / 2 / n;'))).toEqual([
      'keyword:const',
      'number:2',
      'keyword:const',
      'function:f',
      'number:2',
    ]);
    expect(classOf(lexJavaScript('if (x) /re/.test(y);'), '/re/')).toBe('regexp');
    expect(classOf(lexJavaScript('while (next(it)) /a|b/g.exec(s);'), '/a|b/g')).toBe('regexp');
    expect(classOf(lexJavaScript('for (const s of xs) /^#/.test(s) && n++;'), '/^#/')).toBe('regexp');
    // The condition's own parentheses nest: only the one that closes it counts.
    expect(coloured(lexJavaScript('if ((a) / 2 > b / 3) {}'))).toEqual(['keyword:if', 'number:2', 'number:3']);
  });

  it('comments, numbers and contextual keywords used as names', () => {
    expect(coloured(lexJavaScript('// note\nconst n = 10n + 0x1f; /* a\nb */'))).toEqual([
      'comment:// note',
      'keyword:const',
      'number:10n',
      'number:0x1f',
      'comment:/* a\nb */',
    ]);
    expect(coloured(lexJavaScript('cache.get(key); const { type, default: d } = options;'))).toEqual([
      'function:get',
      'keyword:const',
      'attr:default',
    ]);
    expect(coloured(lexJavaScript('for (const x of xs) {}'))).toEqual(['keyword:for', 'keyword:const', 'keyword:of']);
    expect(coloured(lexJavaScript('const { a, ...rest } = f(...args);'))).toEqual(['keyword:const', 'function:f']);
    // `using` declares (ES2026), and is a name anywhere else.
    expect(coloured(lexJavaScript('{ using db = open(); await using f = g(); }'))).toEqual([
      'keyword:using',
      'function:open',
      'keyword:await',
      'keyword:using',
      'function:g',
    ]);
    expect(coloured(lexJavaScript('let using = 1; using(x); a.using = using;'))).toEqual([
      'keyword:let',
      'number:1',
      'function:using',
      'attr:using',
    ]);
  });

  it('TypeScript adds its keywords and built-in types', () => {
    expect(coloured(lexJavaScript('interface Point { x: number }\ntype Id = string | null;', true))).toEqual([
      'keyword:interface',
      'class:Point',
      'attr:x',
      'builtin:number',
      'keyword:type',
      'class:Id',
      'builtin:string',
      'literal:null',
    ]);
    expect(coloured(lexJavaScript('let n: number', false))).toEqual(['keyword:let']);
  });
});

describe('bash, JSON and TOML', () => {
  it('bash: comments, strings with variables, assignments, keywords and built-ins', () => {
    expect(
      coloured(lexBash('export NAME="x $HOME y" # note\nfor f in *.py; do echo "$f"; done\npip-sync a#b')),
    ).toEqual([
      'builtin:export',
      'variable:NAME',
      'string:"x ',
      'variable:$HOME',
      'string: y"',
      'comment:# note',
      'keyword:for',
      'keyword:in',
      'keyword:do',
      'builtin:echo',
      'string:"',
      'variable:$f',
      'string:"',
      'keyword:done',
    ]);
  });

  it('JSON: keys, strings, numbers, literals and punctuation', () => {
    expect(coloured(lexJson('{"a": [1.5, -2e3, true, null, "s"]}'))).toEqual([
      'punct:{',
      'attr:"a"',
      'punct::',
      'punct:[',
      'number:1.5',
      'punct:,',
      'number:-2e3',
      'punct:,',
      'literal:true',
      'punct:,',
      'literal:null',
      'punct:,',
      'string:"s"',
      'punct:]}', // neighbours of one class merge
    ]);
  });

  it('TOML: tables, keys (dotted and quoted), strings, numbers, dates and booleans', () => {
    expect(
      coloured(
        lexToml(
          '[[tool.x]]\nname = "demo" # c\n"a b".c = 1_000\nwhen = 1979-05-27T07:32:00Z\nok = true\ndeps = { req = \'>=2\' }',
        ),
      ),
    ).toEqual([
      'section:[[tool.x]]',
      'attr:name',
      'string:"demo"',
      'comment:# c',
      'attr:"a b".c',
      'number:1_000',
      'attr:when',
      'number:1979-05-27T07:32:00Z',
      'attr:ok',
      'literal:true',
      'attr:deps',
      'attr:req',
      "string:'>=2'",
    ]);
    // Literal strings keep backslashes as they are; multi-line strings span lines.
    expect(coloured(lexToml("path = 'C:\\dir\\'\ntext = '''a\nb'''\nq = \"say \\\"hi\\\"\""))).toEqual([
      'attr:path',
      "string:'C:\\dir\\'",
      'attr:text',
      "string:'''a\nb'''",
      'attr:q',
      'string:"say \\"hi\\""',
    ]);
  });
});

describe('highlightToHtml', () => {
  const textOf = (html: string) =>
    html
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&amp;/g, '&');

  it('escapes every character of the code, so no code becomes markup', () => {
    const html = highlightToHtml('x = "<script>alert(1)</script>" & \'y\'', 'python', new Set());
    expect(html).not.toContain('<script');
    expect(html).toContain('&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;');
    expect(html).toContain('&amp; <span class="tok-string">&#x27;y&#x27;</span>');
  });

  it('loses and adds no character for any code block of the book', () => {
    let blocks = 0;
    for (const { name, source } of bookChapters()) {
      for (const [, lang, code] of source.matchAll(/^```(\w+)[^\n]*\n([\s\S]*?)\n```$/gm)) {
        if (!(lang in CODE_LANGUAGES) || CODE_LANGUAGES[lang] === null) continue;
        blocks++;
        const html = highlightToHtml(code, lang, new Set());
        expect(textOf(html), `${name}: ${code.slice(0, 60)}`).toBe(
          code
            .split('\n')
            .map((line) => `${line}\n`)
            .join(''),
        );
      }
    }
    expect(blocks).toBeGreaterThan(1000);
  });
});
