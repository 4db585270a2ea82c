import path from 'node:path';
import { checkBook, probePython, type ChapterReport } from '../check/check-book.js';
import { probeIsolation } from '../confine/isolation.js';
import { loadConfig } from '../config/load-config.js';
import { BROWSER_CHECK_FILE, pyodideVersion } from '../runner/build/browser-check-file.js';

export interface CheckCommandOptions {
  config: string;
  locale?: string[];
  slug?: string[];
  jobs?: number;
  python?: string;
  browser?: boolean;
  allowMissingPytest?: boolean;
  allowUnconfined?: boolean;
}

/** `pybook check`: runs every runnable example; prints failures with chapter:line and a diff. */
export async function runCheck(options: CheckCommandOptions): Promise<boolean> {
  const config = loadConfig(options.config);
  const out = process.stdout;
  const runtimes: string[] = [];
  // Where the examples cannot be fully confined, the check refuses (UnconfinedError) unless
  // allowed; allowed, it says once what is missing, before anything runs.
  const { warning } = probeIsolation();
  if (warning && options.allowUnconfined) process.stderr.write(`${warning}\n`);
  const filter = {
    locales: options.locale,
    slugs: options.slug,
    jobs: options.jobs,
    python: options.python,
    browser: options.browser !== false,
    allowMissingPytest: options.allowMissingPytest === true,
    allowUnconfined: options.allowUnconfined === true,
    onBrowserRuntime: (name: string, version: string) =>
      runtimes.push(name === 'python' ? `Pyodide ${pyodideVersion()} (Python ${version})` : `the sandbox (${version})`),
  };
  const reports = await checkBook(config, filter, (r) => {
    for (const failure of r.failures)
      out.write(`FAIL ${r.file}:${failure.line} (${failure.lang})\n  ${failure.message.split('\n').join('\n  ')}\n`);
  });
  printSummary(reports);
  const python = probePython(options.python);
  out.write(
    `Python: ${python.version ?? 'not found'} (${python.command})${python.hasPytest ? ', with pytest' : ', without pytest'}; JavaScript: Node ${process.versions.node}.\n`,
  );
  if (runtimes.length)
    out.write(
      `In the reader's browser: ${runtimes.join(' and ')}; results written to ${path.join(config.contentDir, BROWSER_CHECK_FILE)}.\n`,
    );
  if (python.version === undefined) return false;
  return reports.every((r) => r.failures.length === 0);
}

function printSummary(reports: ChapterReport[]): void {
  const out = process.stdout;
  out.write('\nExamples per chapter (ran / exempt / python runnable):\n');
  for (const r of reports) {
    const pct = r.pythonBlocks ? Math.round((100 * r.pythonRunnable) / r.pythonBlocks) : 100;
    out.write(
      `  ${r.failures.length ? '✗' : '✓'} ${r.locale.padEnd(6)} ${r.slug.padEnd(42)} ${String(r.ran).padStart(3)} ran  ${String(r.exempt.length).padStart(2)} exempt  ${pct}% python runnable\n`,
    );
    for (const e of r.exempt) out.write(`      exempt ${r.file}:${e.line} (${e.lang}): ${e.reason}\n`);
    for (const e of r.notRun) out.write(`      not run ${r.file}:${e.line} (${e.lang}): ${e.reason}\n`);
  }
  const total = (f: (r: ChapterReport) => number) => reports.reduce((sum, r) => sum + f(r), 0);
  const python = total((r) => r.pythonBlocks);
  const runnable = total((r) => r.pythonRunnable);
  const failures = total((r) => r.failures.length);
  const notRun = total((r) => r.notRun.length);
  for (const lang of ['python', 'javascript'] as const) {
    if (!total((r) => r.browser[lang].ran)) continue;
    const passed = total((r) => r.browser[lang].passed);
    const native = total((r) => r.passedNatively[lang] ?? 0);
    out.write(
      `Runnable in the browser (${lang}): ${passed} of the ${native} examples that pass natively (${native ? ((100 * passed) / native).toFixed(1) : '100.0'}%).\n`,
    );
  }
  const exercises = reports.filter((r) => r.exercise);
  if (exercises.length) {
    const verified = exercises.filter((r) => r.exercise!.verified).length;
    const byLocale = [...new Set(exercises.map((r) => r.locale))]
      .map((l) => `${l} ${exercises.filter((r) => r.locale === l).length}`)
      .join(', ');
    out.write(
      `Exercises: ${verified} of ${exercises.length} verified (answer passes its tests, starter code fails them; ${byLocale}).\n`,
    );
  }
  const ran = total((r) => r.ran);
  out.write(
    `\n${ran} example${ran === 1 ? '' : 's'} ran, ${total((r) => r.exempt.length)} exempt, ${notRun ? `${notRun} not run with this Python, ` : ''}${failures} failed; ` +
      `${runnable}/${python} Python blocks runnable (${python ? ((100 * runnable) / python).toFixed(1) : '100.0'}%).\n`,
  );
  const shared = total((r) => r.shared);
  if (shared)
    out.write(
      `${shared} run${shared === 1 ? '' : 's'} shared by identical examples and exercises (the same code and expected output, or the same answer and tests, elsewhere in the book).\n`,
    );
}
