import type { Exercise } from '../../exercise/shared/collect.js';
import type { Root as HastRoot } from 'hast';

/** Front matter a chapter may declare (docs/authoring.md). */
export interface FrontMatter {
  title: string;
  description?: string;
  keywords?: string[];
  sidebar_label?: string;
  unlisted?: boolean;
}

export interface Heading {
  depth: number;
  text: string;
  id: string;
  line: number;
}

/** A link found in a chapter, kept so the build can check it against the page models. */
export interface ChapterLink {
  /** Chapter slug the link points at ('' = the book's home), or undefined for in-page anchors. */
  targetSlug?: string;
  anchor?: string;
  /**
   * Set for images and links to files (`/img/cover.svg`, `./diagram.png`): the path as written,
   * without query or hash. The link check resolves it against the page and the static folder.
   */
  staticFile?: string;
  /** The URL as the author wrote it. */
  written: string;
  line: number;
  column: number;
}

/** A fenced code block, as the example checker needs it. */
export interface CodeExample {
  lang: string;
  code: string;
  line: number;
  /** Expected standard output from a following ```output block. */
  output?: string;
  norun?: string;
  /** Not runnable in the reader's browser, and why (see docs/authoring.md). */
  nobrowser?: string;
  /** Its key in the browser-check record, when the page may offer to run it (made once, at compile time). */
  key?: string;
  raises?: string;
  title?: string;
  /** Run as a pytest test file, with these extra arguments (see check/run-example.ts). */
  pytest?: string;
}

/** Plain text of one part of a chapter (intro or a heading's section), for search. */
export interface TextSection {
  headingId?: string;
  heading?: string;
  depth?: number;
  text: string;
  /** The JavaScript code of the section's comparisons: the names a JavaScript engineer searches with. */
  javascript?: string;
  /** The inline code of the section's text, one span a line (search reads its operators: `===`, `?.`). */
  code?: string;
  /** The inline code of the heading, one span a line. */
  headingCode?: string;
  /** What the author gave the section for search where its text cannot say it (`::keywords[…]`). */
  keywords?: string[];
}

export interface Warning {
  file: string;
  line?: number;
  column?: number;
  message: string;
}

/** What the markdown pipeline makes of one chapter file. */
export interface CompiledChapter {
  frontMatter: FrontMatter;
  hast: HastRoot;
  headings: Heading[];
  links: ChapterLink[];
  examples: CodeExample[];
  /** The chapter's exercise (starter code, tests, answer), when it has one. */
  exercise?: Exercise;
  sections: TextSection[];
  wordCount: number;
  warnings: Warning[];
  /** The chapter as clean Markdown (src/llms/), unless book.config.json turns it off ("llms": false). */
  markdown?: string;
}
