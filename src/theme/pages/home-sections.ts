import type { InterfaceStrings } from '../../i18n/types.js';
import type { HomeChapter, HomeData } from '../../pages/home.js';
import { codeBlockHtml } from '../content/code-block.js';
import { compareHtml } from '../content/compare.js';
import { escapeHtml } from '../content/html.js';

function chapterLink(chapter: HomeChapter): string {
  return `<a class="home-chapter-title" href="${escapeHtml(chapter.href)}">${escapeHtml(chapter.title)}</a>`
    + (chapter.description ? `<p class="home-chapter-description">${escapeHtml(chapter.description)}</p>` : '');
}

/**
 * The home page below the hero: one small comparison that shows what the book does, the
 * projects, and every part with its chapters and what each teaches. Static HTML written by the
 * build (src/generator/render-page.ts), like a chapter's content.
 */
export function homeSectionsHtml(home: HomeData, strings: InterfaceStrings): string {
  const example = compareHtml(home.example.map((block) => ({
    html: codeBlockHtml({ lang: block.lang, codeHtml: block.codeHtml, output: block.output }, { strings, runnable: new Set() }),
    width: block.width,
  })), strings);
  const projects = home.projects.length === 0 ? '' : '<section class="home-section" aria-labelledby="home-projects-title">'
    + `<h2 id="home-projects-title">${escapeHtml(strings.homeProjectsTitle)}</h2>`
    + `<ul class="home-projects">${home.projects.map((project) => `<li class="home-card">${chapterLink(project)}</li>`).join('')}</ul></section>`;
  const parts = home.parts.map((part) => `<section class="home-part" aria-label="${escapeHtml(part.label)}"><h3>${escapeHtml(part.label)}</h3>`
    + `<ul>${part.chapters.map((chapter) => `<li>${chapterLink(chapter)}</li>`).join('')}</ul></section>`);
  return '<section class="home-section home-example" aria-labelledby="home-example-title">'
    + `<h2 id="home-example-title">${escapeHtml(strings.homeExampleTitle)}</h2><p class="home-section-intro">${escapeHtml(strings.homeExampleIntro)}</p>${example}</section>`
    + projects
    + `<section class="home-section" aria-labelledby="home-contents-title"><h2 id="home-contents-title">${escapeHtml(strings.homeContentsTitle)}</h2><div class="home-parts">${parts.join('')}</div></section>`;
}
