import type { Root } from 'hast';
import { createElement, Fragment, type ReactNode } from 'react';
import { jsx, jsxs } from 'react/jsx-runtime';
import { renderToStaticMarkup } from 'react-dom/server';
import rehypeReact from 'rehype-react';
import { unified } from 'unified';
import { contentComponents } from './components.js';
import { ContentContext, type ContentContextValue } from './content-context.js';

// rehype-react reads the registry object at every render, so a component registered after this
// module loaded is rendered too.
const toReact = unified().use(rehypeReact, { Fragment, jsx, jsxs, components: contentComponents });

/**
 * A chapter's hast (or the home page's sections' element) as static HTML: hast elements become
 * React elements through rehype-react, named ones rendered by the registry's components, and
 * react-dom/server writes them. Chapter content is never hydrated: the browser's behaviour for it
 * (tabs, copy, Run) is in the lazily loaded client code.
 */
export function renderContentHtml(root: Root, context: ContentContextValue): string {
  return renderElementHtml(toReact.stringify(root), context);
}

/** A React element of chapter components, rendered inside the content context. */
export function renderElementHtml(element: ReactNode, context: ContentContextValue): string {
  return renderToStaticMarkup(createElement(ContentContext.Provider, { value: context }, element));
}
