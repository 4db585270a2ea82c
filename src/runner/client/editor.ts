/**
 * The code editor of an example being edited: CodeMirror 6, behind a small seam (ui.ts creates
 * one, reads its text and focuses it). A chunk of its own, which ui.ts imports when the reader
 * points at or presses Edit (or has edits to restore): a Run needs none of its 440 KB, which
 * would otherwise be a tenth of a first Python run's bytes.
 *
 * Keys: Tab and Shift+Tab indent and dedent; Escape then Tab leaves the editor (CodeMirror's own
 * rule, so a keyboard user is never trapped); Enter keeps the indentation and adds a level after
 * a `:` or an open bracket; Ctrl/Cmd+Enter runs (or checks) the example.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import { python } from '@codemirror/lang-python';
import { bracketMatching, HighlightStyle, indentOnInput, indentUnit, syntaxHighlighting } from '@codemirror/language';
import { EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';

export interface CodeEditor {
  /** The element to put in the page in place of the code. */
  readonly element: HTMLElement;
  value(): string;
  focus(): void;
  /** Puts the cursor at the start of a line (1-based) and shows it. */
  goToLine(line: number): void;
}

export interface EditorOptions {
  code: string;
  lang: 'python' | 'javascript';
  /** Accessible name. */
  label: string;
  onChange: (code: string) => void;
  /** Ctrl/Cmd+Enter. */
  onRun: () => void;
}

/**
 * The page's own colour classes (src/markdown/highlight/, styled in styles.css), so an edited
 * example keeps the colours it had on the page.
 */
const PAGE_COLOURS = HighlightStyle.define([
  {
    tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword, tags.definitionKeyword, tags.moduleKeyword],
    class: 'tok-keyword',
  },
  { tag: [tags.string, tags.special(tags.string)], class: 'tok-string' },
  { tag: tags.regexp, class: 'tok-regexp' },
  { tag: tags.number, class: 'tok-number' },
  { tag: [tags.bool, tags.null, tags.atom], class: 'tok-literal' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], class: 'tok-comment' },
  {
    tag: [
      tags.function(tags.variableName),
      tags.function(tags.propertyName),
      tags.function(tags.definition(tags.variableName)),
    ],
    class: 'tok-function',
  },
  { tag: [tags.className, tags.definition(tags.className), tags.typeName], class: 'tok-class' },
  { tag: [tags.propertyName, tags.attributeName], class: 'tok-attr' },
  { tag: [tags.self, tags.special(tags.variableName)], class: 'tok-self' },
  { tag: [tags.standard(tags.variableName)], class: 'tok-builtin' },
  { tag: [tags.meta], class: 'tok-meta' },
]);

/** Phones and narrow windows wrap long lines instead of scrolling sideways. */
const narrow = () => window.matchMedia('(max-width: 640px)').matches;

export function createEditor({ code, lang, label, onChange, onRun }: EditorOptions): CodeEditor {
  const element = document.createElement('div');
  element.className = 'code-editor';
  const view = new EditorView({
    parent: element,
    state: EditorState.create({
      doc: code,
      extensions: [
        Prec.highest(
          keymap.of([
            {
              key: 'Mod-Enter',
              run: () => {
                onRun();
                return true;
              },
            },
          ]),
        ),
        lineNumbers(),
        history(),
        indentOnInput(),
        bracketMatching(),
        indentUnit.of(lang === 'python' ? '    ' : '  '),
        EditorState.tabSize.of(4),
        keymap.of([indentWithTab, ...defaultKeymap, ...historyKeymap]),
        lang === 'python' ? python() : javascript(),
        syntaxHighlighting(PAGE_COLOURS),
        narrow() ? EditorView.lineWrapping : [],
        EditorView.contentAttributes.of({
          'aria-label': label,
          'aria-multiline': 'true',
          'aria-keyshortcuts': 'Control+Enter Meta+Enter',
          autocapitalize: 'off',
          autocorrect: 'off',
          spellcheck: 'false',
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  return editorOf(element, view);
}

const editorOf = (element: HTMLElement, view: EditorView): CodeEditor => ({
  element,
  value: () => view.state.doc.toString(),
  focus: () => view.focus(),
  goToLine: (line) => {
    const { doc } = view.state;
    const at = doc.line(Math.min(Math.max(1, Math.trunc(line)), doc.lines)).from;
    view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
    view.focus();
  },
});
