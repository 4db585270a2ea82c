/** A chapter as the home page lists it. */
export interface HomeChapter {
  title: string;
  href: string;
  description: string;
}
export interface HomeExampleBlock {
  lang: string;
  codeHtml: string;
  width: number;
  output: string;
}

/** What the home page shows besides the hero: the book's parts, its projects and a first comparison (made by pages/home.ts). */
export interface HomeData {
  cover: string;
  parts: Array<{ label: string; chapters: HomeChapter[] }>;
  projects: HomeChapter[];
  example: [HomeExampleBlock, HomeExampleBlock];
}
