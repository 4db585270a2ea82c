import type { Exercise } from '../exercise/shared/collect.js';
import type { ChapterLink, CodeExample, FrontMatter, Heading, Warning } from '../shared/model/chapter.js';

/** What the markdown plugins leave on a chapter's VFile (file.data), for compile.ts to collect. */
declare module 'vfile' {
  interface DataMap {
    frontMatter: FrontMatter;
    headings: Heading[];
    links: ChapterLink[];
    examples: CodeExample[];
    exercise: Exercise | undefined;
    warnings: Warning[];
  }
}
