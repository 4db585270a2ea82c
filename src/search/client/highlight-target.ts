import type { SiteData } from '../../shared/model/page.js';
import { MAIN_CONTENT_ID } from '../../shared/page-landmarks.js';
import { findMatches } from '../shared/highlight.js';
import { normalizeLatin, operatorsAt, type CjkSegmenter } from '../shared/tokenize.js';
import { loadSearchEngine } from './load-engine.js';

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/**
 * Marks what the reader typed (the `highlight` parameter) on the page. Latin words need only
 * their stems. Chinese has no spaces: the typed text and the page are cut into words by the
 * engine's segmenter (the index's jieba-made vocabulary), so whole words are marked as the search
 * matched them, never a character inside a longer word (式 in 表达式). That needs the index, which
 * a reader coming from a search has in this page context or in the HTTP cache; if it cannot be
 * loaded, the typed Chinese is marked where it occurs as written.
 */
export async function highlightTyped(typed: string, removeLabel: string, site: SiteData): Promise<void> {
  const engine = CJK.test(typed) ? await loadSearchEngine(site).catch(() => undefined) : undefined;
  // The reader may have moved on while the index loaded: mark only the page it was meant for.
  if (new URL(location.href).searchParams.get('highlight') !== typed) return;
  if (engine) highlightTarget(engine.queryTokens(typed), removeLabel, engine.segment);
  else highlightTarget(highlightTokensOf(typed), removeLabel);
}

/**
 * The tokens to mark for what the reader typed (the `highlight` parameter carries their words,
 * not the index's stems): Latin words by their stem, as the index matches them; Chinese runs as
 * written; JavaScript's operators (`===`, `?.`) as the index reads them.
 */
export function highlightTokensOf(typed: string): string[] {
  const tokens: string[] = [];
  for (const [word] of typed.matchAll(/[\u3400-\u9fff\uf900-\ufaff]+|[a-z0-9]+(?:['’][a-z]+)?/gi)) {
    const token = CJK.test(word) ? word : normalizeLatin(word.toLowerCase());
    if (token && !tokens.includes(token)) tokens.push(token);
  }
  for (const [operator] of operatorsAt(typed)) if (!tokens.includes(operator)) tokens.push(operator);
  return tokens;
}

const SKIP = new Set(['SCRIPT', 'STYLE', 'TEXTAREA', 'MARK', 'BUTTON']);

/**
 * Marks the searched tokens in the page content after opening a search result, and adds a
 * button that removes the marks (and the `highlight` parameter). Text is only split and
 * wrapped: nothing from the query or the page is ever parsed as HTML.
 */
export function highlightTarget(tokens: string[], removeLabel: string, segment?: CjkSegmenter): void {
  const content = document.querySelector<HTMLElement>(`#${MAIN_CONTENT_ID} .markdown`);
  if (!content) return;
  removeHighlights(content);
  if (!tokens.length) return;
  const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement &&
      !node.parentElement.closest('script,style,textarea,mark,button') &&
      !SKIP.has(node.parentElement.tagName)
        ? NodeFilter.FILTER_ACCEPT
        : NodeFilter.FILTER_REJECT,
  });
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
  let marked = 0;
  for (const text of texts) {
    const ranges = findMatches(text.data, tokens, segment);
    // Split from the end so earlier offsets stay valid.
    for (let r = ranges.length - 1; r >= 0; r--) {
      const [start, end] = ranges[r];
      const match = text.splitText(start);
      match.splitText(end - start);
      const mark = document.createElement('mark');
      mark.className = 'search-highlight';
      match.replaceWith(mark);
      mark.appendChild(match);
      marked++;
    }
  }
  if (!marked) return;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'search-highlight-remove';
  button.textContent = removeLabel;
  button.addEventListener('click', () => {
    removeHighlights(content);
    const url = new URL(location.href);
    url.searchParams.delete('highlight');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  });
  content.prepend(button);
}

function removeHighlights(content: HTMLElement): void {
  content.querySelectorAll('.search-highlight-remove').forEach((button) => button.remove());
  content.querySelectorAll('mark.search-highlight').forEach((mark) => {
    const parent = mark.parentNode;
    mark.replaceWith(...Array.from(mark.childNodes));
    parent?.normalize();
  });
}
