import type { ComponentType } from 'react';
import { Admonition } from './Admonition.js';
import { Answer } from './Answer.js';
import { CodeBlock } from './CodeBlock.js';
import { Compare } from './Compare.js';
import { makeHeading } from './Heading.js';
import { Hint } from './Hint.js';
import { TabItem, Tabs } from './Tabs.js';

/**
 * A React component of the chapter format. One that authors may write in a chapter as JSX says
 * which attributes it accepts (`Tabs.attributes = ['defaultValue', 'groupId']`); the MDX guard
 * (src/markdown/plugins/mdx-guard.ts) allows exactly those, as plain strings. One without
 * `attributes` is made by the markdown pipeline itself (src/markdown/to-hast-handlers.ts) and is
 * not the authors' to write.
 */
// Props differ per component and arrive from hast as strings: `any` is the registry's honest type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ContentComponent = ComponentType<any> & { attributes?: readonly string[] };

/**
 * The registry: every hast element named here is rendered by its React component (rehype-react's
 * `components`), and the JSX names authors may write are the entries with `attributes`.
 * Registering a component here is the only step (docs/authoring.md, "Adding a component").
 */
export const contentComponents: Record<string, ContentComponent> = {
  // Written by authors as JSX.
  Compare,
  Tabs,
  TabItem,
  Hint,
  Answer,
  // Made by the markdown pipeline: `:::tip` containers, fenced code, headings with their "#" link.
  Admonition,
  CodeBlock,
  h2: makeHeading('h2'),
  h3: makeHeading('h3'),
  h4: makeHeading('h4'),
  h5: makeHeading('h5'),
  h6: makeHeading('h6'),
};

/** The attributes of a component authors may write, or undefined when `name` is not one. */
export function authorAttributes(name: string): readonly string[] | undefined {
  return Object.hasOwn(contentComponents, name) ? contentComponents[name].attributes : undefined;
}

/** The JSX names authors may write, in the registry's order (for error messages). */
export const authorComponentNames = (): string[] =>
  Object.keys(contentComponents).filter((name) => authorAttributes(name));
