import type { Element, ElementContent } from 'hast';
import type { InterfaceStrings } from '../../shared/i18n/types.js';
import type { ExportChapter } from './book.js';
import { h } from './hast.js';
import type { AnswerEntry } from './prepare-chapter.js';

/** Where an answer entry and the place it came from are, in one export's files. */
export interface AnswerPlaces {
  /** The id of the paragraph left in the chapter, and of the appendix entry. */
  refId(entry: AnswerEntry): string;
  entryId(entry: AnswerEntry): string;
  /** Links to each other. */
  refHref(entry: AnswerEntry): string;
  entryHref(entry: AnswerEntry): string;
  /** Markup after a link that says on which page its target is (the PDF's page numbers). */
  pageOf?(id: string): ElementContent[];
}

/** The paragraph an exercise's hints and answer leave in the chapter: a link to them in the appendix. */
export function answerLinkParagraph(entry: AnswerEntry, strings: InterfaceStrings, places: AnswerPlaces): Element {
  const hints = entry.parts.filter((p) => p.kind === 'hint').length;
  const text = hints ? strings.exportBook.hintsAndAnswerInAppendix : strings.exportBook.answerInAppendix;
  return h('p', { className: ['answer-ref'], id: places.refId(entry) }, [
    h('a', { href: places.entryHref(entry) }, [text]),
    ...(places.pageOf?.(places.entryId(entry)) ?? []),
  ]);
}

/**
 * One chapter's entries of the answers appendix: the chapter's title (a heading at `level`), a
 * link back to the exercise, each hint under its label and the answer with its explanation.
 */
export function answerEntries(
  chapter: ExportChapter,
  entries: AnswerEntry[],
  strings: InterfaceStrings,
  places: AnswerPlaces,
  headingLevel?: number,
): Element[] {
  return entries.map((entry) => {
    const title = entries.length > 1 ? `${chapter.title} (${entry.number})` : chapter.title;
    const parts = entry.parts.map((part) =>
      h('div', { className: ['answer-part', `answer-part-${part.kind}`] }, [
        h('p', { className: ['answer-part-label'] }, [
          part.kind === 'hint' ? part.label || strings.showHint : strings.exportBook.answer,
        ]),
        ...part.content,
      ]),
    );
    return h('section', { className: ['answer-entry'], id: places.entryId(entry) }, [
      h('h2', headingLevel ? { ariaLevel: String(headingLevel) } : {}, [title]),
      h('p', { className: ['answer-back'] }, [
        h('a', { href: places.refHref(entry) }, [`← ${strings.exportBook.backToExercise}`]),
        ...(places.pageOf?.(places.refId(entry)) ?? []),
      ]),
      ...parts,
    ]);
  });
}
