/** A count-dependent string: Intl.PluralRules picks the form. `{count}` is replaced. */
export interface Plural {
  one: string;
  other: string;
}

/** Every interface string of the site; one table per locale implements it. */
export interface InterfaceStrings {
  skipToContent: string;
  home: string;
  homeExampleTitle: string;
  homeExampleIntro: string;
  homeProjectsTitle: string;
  homeContentsTitle: string;
  startReading: string;
  languageMenu: string;
  sourceRepository: string;
  searchPlaceholder: string;
  searchShortcutHint: string;
  /** The shortcut hint on macOS, where the shortcut is Cmd+K. */
  searchShortcutHintMac: string;
  searchResultsLabel: string;
  searchClear: string;
  searchNoResults: string;
  searchSeeAll: string;
  /** The search page without JavaScript. */
  searchNeedsJavaScript: string;
  searchLoading: string;
  searchPageTitle: string;
  searchPageTitleWithQuery: string; // {query}
  searchPageNoDocuments: string;
  /** {count}: the pages (chapters) found, each listed once with its matching sections under it. */
  searchPageResultCount: Plural;
  searchHighlightRemove: string;
  colorModeToLight: string;
  colorModeToDark: string;
  colorModeCurrentLight: string;
  colorModeCurrentDark: string;
  openSidebar: string;
  closeSidebar: string;
  hideSidebar: string;
  showSidebar: string;
  docsSidebarLabel: string;
  breadcrumbs: string;
  breadcrumbHome: string;
  /** The label of a heading's # link; {heading} is the heading's text. */
  headingLink: string;
  onThisPage: string;
  editThisPage: string;
  paginationLabel: string;
  previous: string;
  next: string;
  newerEntries: string;
  olderEntries: string;
  versionBadge: string; // {version}
  versionLabelCurrent: string;
  /** The book as a PDF and an EPUB (src/export): their own words, and the site's links to them. */
  exportBook: ExportBookStrings;
  tags: string;
  taggedWith: Plural;
  blogPostCount: Plural;
  docCount: Plural;
  readingTime: Plural;
  copy: string;
  copied: string;
  copyCode: string;
  toggleWordWrap: string;
  codeOutput: string;
  /** The Run button and what running an example in the page says. */
  runner: RunnerStrings;
  showAnswer: string;
  /** The summary of an exercise's <Hint> (unless the chapter gives its own). */
  showHint: string;
  /** The exercise's Check button, its accessible label, and what its results region says. */
  exercise: ExerciseStrings;
  /** The reader's progress and their kept code (src/progress/). */
  progress: ProgressStrings;
  /** Reading offline (src/offline/): the navbar's menu, the update notice and the offline page. */
  offline: OfflineStrings;
  compareJavaScript: string;
  comparePython: string;
  admonition: Record<'note' | 'tip' | 'info' | 'warning' | 'danger', string>;
  closeAnnouncement: string;
  notTranslated: string;
  unlistedTitle: string;
  unlistedBody: string;
  notFoundTitle: string;
  notFoundBody: string;
  notFoundGoHome: string;
  notFoundSearch: string;
  notFoundBrokenLink: string;
  crashTitle: string;
  crashTryAgain: string;
  chunkRetry: string;
  baseUrlWarning: string; // {basePath}
  footerBuiltWith: string;
  /** The chapter's Markdown (src/llms/): the chapter header's actions, and the words of the Markdown files. */
  markdown: MarkdownStrings;
}

export interface MarkdownStrings {
  /** The chapter header's link to the chapter as a Markdown file. */
  view: string;
  /** The button beside it that copies that file. */
  copy: string;
  copied: string;
  copyFailed: string;
  /** In the Markdown: the label above an exercise's starter code (its tests take exercise.testsLabel, a hint showHint). */
  starterCode: string;
  /** In the Markdown: the heading of an exercise's answer (unless the chapter gives its own). */
  answer: string;
  /** In the Markdown: an admonition's label when the chapter gives it a title; {kind} and {title}. */
  admonitionTitle: string;
  /** In llms.txt: the sentence that links the whole book as one file; {link}. */
  fullBook: string;
  /** In llms.txt: the sentence that links the book's other languages; {links}. */
  otherLanguages: string;
}

export interface ExerciseStrings {
  check: string;
  checkLabel: string;
  /** The results region's accessible name. */
  results: string;
  checking: string;
  /** {passed} and {total} test counts. */
  someFailed: string;
  allPassed: string;
  /** Labels of a failed case's parts. */
  input: string;
  expected: string;
  actual: string;
  /** The line of the tests file a failed case stopped at; {line}. */
  atLine: string;
  /** The line of the reader's code a failure was raised at; {line}. */
  atCodeLine: string;
  /** The button that puts the editor's cursor on that line; {line}. */
  goToLine: string;
  /** The label above an exercise's tests block. */
  testsLabel: string;
  /** The code (or the tests) raised before any test ran; the error follows. */
  didNotLoad: string;
  /** The check gave no report: it was stopped, timed out or the runtime failed; the reason follows. */
  noReport: string;
}

export interface OfflineStrings {
  /** The navbar button's name and the menu's heading. */
  menu: string;
  /** What "Make available offline" saves; {language} is the language's name. */
  intro: string;
  /** The button that saves the page's language. */
  download: string;
  /** Beside it: {size} to download, {stored} once stored. */
  downloadSize: string;
  /** The progress bar's name, and the text beside it: {done} of {total}. */
  progressLabel: string;
  progress: string;
  cancel: string;
  /** A language saved on this device; {size} it takes. */
  saved: string;
  /** Saved, but some files are missing; {size} still to download. */
  incomplete: string;
  resume: string;
  remove: string;
  removed: string;
  /** The other languages' rows: their name, then their state. */
  otherLanguages: string;
  notSaved: string;
  /** Why a download stopped. */
  failedNetwork: string;
  failedSpace: string;
  failedServer: string; // {detail}
  /** The browser cannot keep the book (no service workers, or they are blocked). */
  unsupported: string;
  /** Until the worker is ready. */
  preparing: string;
  /** Shown at the foot of the page when a newer build is deployed, with the Reload button. */
  updateAvailable: string;
  reload: string;
  /** The page the worker shows for a page that is neither online nor saved. */
  offlinePageTitle: string;
  offlinePageText: string;
  offlinePageSaved: string;
  offlinePageNothingSaved: string;
  offlinePageHome: string;
  /** Above the links to the book's other languages saved on this device. */
  offlinePageOtherLanguages: string;
}

export interface RunnerStrings {
  run: string;
  /** Accessible name of Run; {language} is Python or JavaScript. */
  runLabel: string;
  stop: string;
  edit: string;
  editLabel: string;
  reset: string;
  resetLabel: string;
  /** Accessible name of the editor; {language}. */
  editorLabel: string;
  yourRun: string;
  matches: string;
  differs: string;
  /** {loaded} and {total} in MB. */
  loading: string;
  starting: string;
  running: string;
  /** Said when a run ends; {verdict} is matches/differs, {status} the exit status. */
  finished: string;
  finishedStatus: string;
  /** Said when a run ends with an exception the book does not show (the traceback is in the output). */
  raised: string;
  stopped: string;
  /** {seconds}. */
  timedOut: string;
  /** The line after a run's output that passed the limits; {lines} and {kb}. */
  truncated: string;
  /** Said when a run that passed the limits ends. */
  finishedTruncated: string;
  /** After a ModuleNotFoundError for a package outside the standard library; {module}, then a link to {chapter}. */
  moduleMissing: string;
  /** The link text of the chapter on installing packages. */
  moduleMissingLink: string;
  /** After an EOFError: the program read more input than the Input field holds. */
  inputMissing: string;
  /** Accessible name (and label) of the field input() reads from. */
  stdinLabel: string;
  /** {message}. */
  loadFailed: string;
  /** The sandbox died during the run: a program that used up its memory, in all likelihood. */
  crashed: string;
  /** Shown instead of Run, with the reason on hover and focus. */
  cannotRun: string;
  cannotRunPytest: string;
  notChecked: string;
  /** Accessible name of an exercise's Run (beside Check). */
  runExerciseLabel: string;
  /** The button under a runtime that could not start. */
  retry: string;
  /** The buttons under output taller than the panel. */
  showAllOutput: string;
  showLessOutput: string;
  /** Said when the browser refused to keep an edit (storage full or disabled). */
  editNotKept: string;
  /** Said after Reset, beside the button that puts the reader's code back (and its accessible name). */
  resetDone: string;
  undoReset: string;
  undoResetLabel: string;
}

export interface ProgressStrings {
  /** After the reading time of a chapter whose exercise the reader solved / checked without solving. */
  chapterSolved: string;
  chapterNotSolved: string;
  /** Added to a sidebar link's description when its chapter's exercise is solved. */
  sidebarSolved: string;
  /** {done} of {total} exercises, per part of the book and in all. */
  partProgress: Plural;
  /** The home page's link to where the reader left off; {chapter}. */
  continueReading: string;
  /** The home page's section on the reader's data. */
  title: string;
  intro: string;
  export: string;
  import: string;
  resetCode: string;
  clear: string;
  confirmResetCode: string;
  confirmClear: string;
  /** {code} edited examples and {exercises} exercise results. */
  imported: string;
  /** {reason}. */
  importFailed: string;
  cleared: string;
  codeReset: string;
  /** Edits whose example the book has changed since; {count}. */
  dropped: Plural;
  droppedShow: string;
  droppedDismiss: string;
}

export interface ExportBookStrings {
  /** The heading of the table of contents. */
  contents: string;
  /** The heading of the appendix that holds the exercises' hints and answers. */
  answers: string;
  /** The label of an answer in that appendix (its hints keep theirs). */
  answer: string;
  /** Where an exercise's answer was, a link to it in the appendix. */
  answerInAppendix: string;
  /** The same when hints come before the answer. */
  hintsAndAnswerInAppendix: string;
  /** In the appendix, the link back to the exercise. */
  backToExercise: string;
  /** After a link in the PDF: the page it leads to; {page}. */
  onPage: string;
  /** The cover's line under the tagline; {version}. */
  version: string;
  /** The home page's and the footer's title of the download links. */
  download: string;
  /** One download link; {format} (PDF, EPUB) and {size} (e.g. 2.1 MB). */
  downloadFile: string;
}
