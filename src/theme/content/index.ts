export { authorAttributes, authorComponentNames, contentComponents, type ContentComponent } from './components.js';
export type { ContentContextValue } from './content-context.js';
export { renderContentHtml, renderElementHtml } from './render-content.js';
