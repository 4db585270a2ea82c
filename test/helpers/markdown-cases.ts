/**
 * Markdown on which pybook's own parsing shortcuts (hiding code bodies, the table construct) must
 * give the tree that remark-parse gives without them: lists (the CommonMark spread rules), and
 * every construct the book's syntax extensions add, in and around containers.
 */
const lists = [
  '- a\n- b\n- c',
  '- a\n\n- b\n- c',
  '- a\n\n  second paragraph\n- b',
  '1. one\n2. two\n\n3. three',
  '3) three\n4) four',
  '- a\n  - nested\n\n  - nested spread\n- b',
  '- a\n  1. x\n  2. y\n- b\n\n\n- c after two blank lines',
  '-\n  empty first line\n- b',
  '- \n- empty items\n-',
  '> - in a quote\n>\n> - spread in a quote\n\nafter',
  '- a\n  > quote in an item\n  > more\n- b',
  '- a\n\n```js\ncode ends the list\n```',
  '- a\n  ```py\n  x = 1\n  ```\n\n- b',
  '* star\n+ plus\n- dash',
  '- [x] not a task in this parser\n- [ ] either',
  ':::note\n- in a directive\n\n- spread\n:::\n\n- outside',
  '<Compare>\n\n- in JSX\n- items\n\n</Compare>',
  '- a\n- b\n\n\n',
  '- a\n    indented continuation\n- b\n\n      indented code in an item',
  '1. a\n\n   - b\n\n     c\n2. d',
];
const constructs = [
  '',
  '\n\n\n',
  '# ATX *emphasis* `code`\n\nSetext\n======\n\nAnd two\n---',
  'hard  \nbreak\\\nescape &amp; &#65; &#x42; &copy;',
  '[link](https://example.com "title") ![image](a.png) [ref][r] [collapsed][] [r]\n\n[r]: https://r.example/ "T"',
  '**strong** _em_ ~~strike~~ `a ``b`` c`',
  '***\n\n    indented code\n\nparagraph\nlazy line',
  '---\ntitle: Front matter\n---\n\n# Heading \\{#custom-id\\}',
  'import {A} from "./a.js"\nexport const b = 1\n\n<A b={1 + 2} c="d" {...rest}>text **bold** {expression}</A>\n\n{/* comment */}',
  '<Compare left="JavaScript">\n\n```js\nconst x = 1;\n```\n\n</Compare>',
  ':::tip[A *label*]{#id .class key="value"}\nBody with ::leaf[x]{y=z} and :text[directive].\n:::',
  '::::outer\n:::inner\nnested\n:::\n::::',
  '| a | b |\n| :- | -: |\n| 1 | `|` |\n\n> quote\n> > nested quote\nlazy',
  'line one\r\nline two\r\n\r\n- crlf\r\n- list',
  ':::note\n-\n\n:::',
  ':::a\n:::b\n> \n-\n\n:::\n:::',
  '<A>\n-\n\n</A>',
];

export const markdownCases = [...lists, ...constructs];
