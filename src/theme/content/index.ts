import type { Root } from 'hast';
import { admonition } from './admonition.js';
import { answer } from './answer.js';
import { codeBlock } from './code-block.js';
import { compare } from './compare.js';
import { heading } from './heading.js';
import { renderHast, type ContentContext, type ContentTemplate } from './render-content.js';
import { tabItem, tabs } from './tabs.js';

/**
 * The templates chapter hast elements map to (see markdown/plugins/mdx-guard.ts for the
 * author-facing list). Chapter content is static: the build writes it as HTML, and React renders
 * and hydrates only the page around it.
 */
export const contentTemplates: Record<string, ContentTemplate> = {
  Admonition: admonition, Answer: answer, CodeBlock: codeBlock, Compare: compare, Tabs: tabs, TabItem: tabItem,
  h2: heading, h3: heading, h4: heading, h5: heading, h6: heading,
};

/** A chapter's content as HTML. */
export function renderContentHtml(root: Root, context: Omit<ContentContext, 'nextId'>): string {
  let ids = 0;
  return renderHast(root, { ...context, nextId: () => `tabs${++ids}` }, contentTemplates);
}
