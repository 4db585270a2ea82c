import { performance } from 'node:perf_hooks';
import { exportToFolder, formatBytes } from '../export/node/export-book.js';
import { EXPORT_FORMATS, type ExportFormat } from '../export/shared/file-names.js';
import { printWarnings, progressReporter } from './report.js';

export interface ExportCommandOptions {
  config: string;
  outDir: string;
  format: string;
  locale: string;
  browser?: string;
  cache?: boolean;
  quiet?: boolean;
}

/** `pybook export`: the book as a PDF and an EPUB per locale, into --out-dir (exports/ by default). */
export async function runExport(options: ExportCommandOptions): Promise<void> {
  const started = performance.now();
  const formats: ExportFormat[] = options.format === 'all' ? [...EXPORT_FORMATS] : [options.format as ExportFormat];
  const locales = options.locale === 'all' ? undefined : [options.locale];
  const step = options.quiet ? undefined : progressReporter();
  // One line per step, also on a terminal: each says what it made.
  const onStep = step && ((line: string) => process.stderr.write(`pybook: ${line}\n`));
  const result = await exportToFolder({
    configPath: options.config,
    outDir: options.outDir,
    formats,
    locales,
    browser: options.browser,
    cache: options.cache,
    onStep,
  });
  printWarnings(result.warnings);
  if (!options.quiet) {
    const list = result.files.map((f) => `  ${options.outDir}/${f.name} (${formatBytes(f.bytes.length)})`).join('\n');
    process.stdout.write(
      `Exported ${result.files.length} file${result.files.length === 1 ? '' : 's'} into ${options.outDir}/ in ${Math.round(performance.now() - started)} ms:\n${list}\n`,
    );
  }
}
