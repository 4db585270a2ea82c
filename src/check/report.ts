/** What `pybook check` found in one chapter of one language. */
export interface ChapterReport {
  locale: string;
  slug: string;
  file: string;
  ran: number;
  /**
   * Runs (natively or in a reader's runtime) this chapter took from an identical example, or an
   * identical exercise program (candidate and tests), elsewhere in the check.
   */
  shared: number;
  exempt: Array<{ line: number; lang: string; reason: string }>;
  pythonBlocks: number;
  pythonRunnable: number;
  failures: Array<{ line: number; lang: string; message: string }>;
  /** Runnable examples this interpreter cannot run (pytest blocks where pytest is not installed). */
  notRun: Array<{ line: number; lang: string; reason: string }>;
  /** Examples run in the reader's runtimes (Pyodide, the JavaScript sandbox), and how many passed there, per language. */
  browser: Record<'python' | 'javascript', { ran: number; passed: number }>;
  /** Examples that passed with python3 / node, per language. */
  passedNatively: Record<string, number>;
  /** Keys (browser-check record) of the examples that passed in the reader's runtimes. */
  passedInBrowser: string[];
  /** The chapter's exercise, when it has one: whether its answer passed and its starter failed its tests everywhere it ran. */
  exercise?: { verified: boolean; runtimes: string[] };
}

export function emptyReport(locale: string, slug: string, file: string): ChapterReport {
  return {
    locale,
    slug,
    file,
    ran: 0,
    shared: 0,
    exempt: [],
    pythonBlocks: 0,
    pythonRunnable: 0,
    failures: [],
    notRun: [],
    browser: { python: { ran: 0, passed: 0 }, javascript: { ran: 0, passed: 0 } },
    passedNatively: {},
    passedInBrowser: [],
  };
}

/**
 * Calls `onChapter` once per report, as soon as its last job is done (a report with no jobs at
 * once), with its failures in line order.
 */
export class ReportProgress {
  private readonly remaining = new Map<ChapterReport, number>();

  constructor(
    reports: ChapterReport[],
    jobsOf: (report: ChapterReport) => number,
    private readonly onChapter?: (report: ChapterReport) => void,
  ) {
    for (const report of reports) {
      this.remaining.set(report, jobsOf(report));
      if (jobsOf(report) === 0) onChapter?.(report);
    }
  }

  done(report: ChapterReport): void {
    const left = this.remaining.get(report)! - 1;
    this.remaining.set(report, left);
    if (left === 0) {
      report.failures.sort((a, b) => a.line - b.line);
      this.onChapter?.(report);
    }
  }
}
