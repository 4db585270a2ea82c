import { Admonition } from './Admonition.js';
import { Answer } from './Answer.js';
import { CodeBlock } from './CodeBlock.js';
import { Compare } from './Compare.js';
import { makeHeading } from './Heading.js';
import { TabItem, Tabs } from './Tabs.js';

/** The components chapter hast elements map to (see markdown/plugins/mdx-guard.ts for the author-facing list). */
export const contentComponents = {
  Admonition, Answer, CodeBlock, Compare, Tabs, TabItem,
  h2: makeHeading('h2'), h3: makeHeading('h3'), h4: makeHeading('h4'), h5: makeHeading('h5'), h6: makeHeading('h6'),
};
