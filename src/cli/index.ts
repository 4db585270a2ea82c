import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import type { CheckCommandOptions } from './check.js';
import type { ExportCommandOptions } from './export.js';
import { reportFailure } from './report.js';
import type { ServeCommandOptions } from './serve.js';
import type { WatchCommandOptions } from './watch.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  return n;
}

function jobCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new InvalidArgumentError('a job count is a whole number from 1 to 256');
  return n;
}

function threadCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new InvalidArgumentError('a thread count is a whole number from 1 to 64');
  return n;
}

function exportFormat(value: string): string {
  if (!['pdf', 'epub', 'all'].includes(value)) throw new InvalidArgumentError('a format is pdf, epub or all');
  return value;
}

/**
 * A command that ends when its work is done: esbuild's service process ends with it, whether the
 * work succeeded or failed (serve and watch keep theirs while they run, and it ends with them).
 */
function oneShot<A extends unknown[]>(action: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await action(...args);
    } finally {
      const { stopEsbuildService } = await import('../bundler/esbuild-service.js');
      await stopEsbuildService();
    }
  };
}

export function createProgram(): Command {
  const program = new Command('pybook')
    .description('Builds, serves and checks the book "Python guide for JavaScript engineers".')
    .version(version, '-v, --version')
    .showHelpAfterError();

  program
    .command('build')
    .description('build the static site (HTML per route, client bundle, search index, sitemap)')
    .option('-c, --config <file>', 'book configuration', 'book.config.json')
    .option('-o, --out-dir <dir>', 'output folder (its contents are served at the base path)', 'build')
    .option('--no-cache', 'ignore and do not write the build cache (node_modules/.cache/pybook)')
    .option(
      '--threads <n>',
      'threads that compile chapters (default: one per core, up to 8, on 4 or more cores; else 1)',
      threadCount,
    )
    .option(
      '--precompress',
      "also write .br and .gz siblings of the pages and other larger text files, for servers that send them (Pyodide's are always written)",
    )
    .action(
      oneShot(
        async (opts: { config: string; outDir: string; cache: boolean; threads?: number; precompress?: boolean }) => {
          const { runBuild } = await import('./build.js');
          await runBuild({
            config: opts.config,
            outDir: opts.outDir,
            cache: opts.cache,
            threads: opts.threads,
            precompress: opts.precompress,
          });
        },
      ),
    );

  program
    .command('export')
    .description('the book as a PDF (printed by Chromium) and an EPUB 3, one of each per locale')
    .option('-c, --config <file>', 'book configuration', 'book.config.json')
    .option('-o, --out-dir <dir>', 'output folder (pybook replaces it whole, as build does)', 'exports')
    .option('-f, --format <format>', 'pdf, epub or all', exportFormat, 'all')
    .option('-l, --locale <code>', "a locale's code, or all", 'all')
    .option('--browser <path>', 'the Chromium that prints the PDF (default: $CHROMIUM_PATH, else /usr/bin/chromium)')
    .option('--no-cache', 'ignore and do not write the build cache (node_modules/.cache/pybook)')
    .action(
      oneShot(async (opts: ExportCommandOptions) => {
        const { runExport } = await import('./export.js');
        await runExport(opts);
      }),
    );

  program
    .command('serve')
    .description('serve the built site')
    .option('-d, --dir <dir>', 'built site folder', 'build')
    .option('-c, --config <file>', 'book configuration (for the base path)', 'book.config.json')
    .option('-p, --port <port>', 'port', port, 3000)
    .option('--host <host>', 'host to listen on', '127.0.0.1')
    .option('--open', 'open the site in a browser')
    .action(async (opts: ServeCommandOptions) => {
      const { runServe } = await import('./serve.js');
      await runServe(opts);
    });

  program
    .command('watch')
    .alias('dev')
    .description('build, serve and rebuild on every change, reloading open browsers')
    .option('-c, --config <file>', 'book configuration', 'book.config.json')
    .option('-o, --out-dir <dir>', 'output folder', 'build')
    .option('-p, --port <port>', 'port', port, 3000)
    .option('--host <host>', 'host to listen on', '127.0.0.1')
    .action(async (opts: WatchCommandOptions) => {
      const { runWatch } = await import('./watch.js');
      await runWatch(opts);
    });

  program
    .command('check')
    .description(
      "run every code example of the book (with python3 and node, and in the reader's browser runtimes: Pyodide and the JavaScript sandbox) and compare its output",
    )
    .option('-c, --config <file>', 'book configuration', 'book.config.json')
    .option('-l, --locale <code...>', 'only these locales')
    .option('-s, --slug <slug...>', 'only these chapters')
    .option('-j, --jobs <n>', 'examples run at once', jobCount)
    .option('--python <path>', 'the Python interpreter to run the examples with', 'python3')
    .option('--no-browser', 'skip the browser runtimes (and leave the browser-check record as it is)')
    .option(
      '--allow-missing-pytest',
      'list pytest examples as not run when the Python has no pytest, instead of failing the check',
    )
    .option(
      '--allow-unconfined',
      'run the examples even where bubblewrap cannot confine them (the check names what is missing)',
    )
    .action(
      oneShot(async (opts: CheckCommandOptions) => {
        const { runCheck } = await import('./check.js');
        const ok = await runCheck(opts);
        if (!ok) process.exitCode = 1;
      }),
    );
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await createProgram().parseAsync(argv);
  } catch (error) {
    process.exitCode = reportFailure(error);
  }
}
