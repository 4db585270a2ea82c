import { escapeHtml } from './html.js';
import { stringProperty, type ContentTemplate } from './render-content.js';

/** An exercise's answer, closed until the reader opens it (native <details>: works without JavaScript). */
export const answer: ContentTemplate = (element, { strings }, render) =>
  `<details class="answer"><summary>${escapeHtml(stringProperty(element, 'summary') ?? strings.showAnswer)}</summary>`
  + `<div class="answer-content">${render(element.children)}</div></details>`;
