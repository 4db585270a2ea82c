import { performance } from 'node:perf_hooks';
import { Builder } from '../generator/build.js';
import { DiskCache } from '../cache/disk-cache.js';
import { addPrecompressedSiblings, withPrecompressedSiblings } from '../generator/precompress.js';
import { loadConfig } from '../config/load-config.js';
import { assertSafeOutputDir, protectedFoldersOf } from '../output/guard.js';
import { recoverOutputDir, writeSiteAtomically } from '../output/write-site.js';
import { clearProgress, printWarnings, progressReporter } from './report.js';

export interface BuildCommandOptions {
  config: string;
  outDir: string;
  quiet?: boolean;
  cache?: boolean;
  threads?: number;
  /**
   * Write `.br`/`.gz` siblings of the pages and other larger text files (see precompress.ts).
   * Pyodide's siblings are there without it: compressed at install, only copied by a build
   * (runner/pyodide-precompressed.ts), as compressing its 13 MB cost a cold build some 10 s of CPU.
   */
  precompress?: boolean;
}

export interface BuildSummary {
  pages: number;
  locales: string[];
  ms: number;
  warnings: number;
  fallbacks: Record<string, number>;
}

/** `pybook build`: the whole site into the output folder, swapped in only when everything succeeded. */
export async function runBuild(options: BuildCommandOptions): Promise<BuildSummary> {
  const started = performance.now();
  // Refuse a dangerous output folder before spending time on the build.
  const config = loadConfig(options.config);
  const protect = protectedFoldersOf(config);
  const cache = DiskCache.forBook(config.rootDir, options.cache !== false);
  // What the last build wrote is proven by the stamps it kept, not read again (see output/written-stamps.ts).
  const stamps = cache.stampStore();
  assertSafeOutputDir(options.outDir, protect, stamps?.load(options.outDir));
  // A build killed while swapping folders may have left the last site aside: put it back first,
  // so that even if this build fails the previous output is where it was.
  recoverOutputDir(options.outDir);
  const builder = new Builder({
    configPath: options.config,
    diskCache: options.cache !== false,
    mode: 'streamed',
    threads: options.threads,
    onProgress: options.quiet ? undefined : progressReporter(),
  });
  const result = await builder.build();
  if (options.precompress) await addPrecompressedSiblings(result.files, cache);
  writeSiteAtomically(options.outDir, result.files, result.staticDirs, {
    protect: protectedFoldersOf(result.config),
    staticRoot: result.config.rootDir,
    stamps,
    streamed: options.precompress && result.documents ? withPrecompressedSiblings(result.documents) : result.documents,
  });
  cache.flush();
  clearProgress();
  printWarnings(result.warnings);
  const summary: BuildSummary = {
    pages: result.pages.length,
    locales: result.book.locales.map((l) => l.code),
    ms: Math.round(performance.now() - started),
    warnings: result.warnings.length,
    fallbacks: result.fallbacks,
  };
  if (!options.quiet) {
    const fallbackText = Object.entries(summary.fallbacks)
      .filter(([, n]) => n > 0)
      .map(
        ([l, n]) =>
          `${n} chapter${n === 1 ? ' in ' + l + ' falls' : 's in ' + l + ' fall'} back to ${summary.locales[0]}`,
      );
    process.stdout.write(
      `Built ${summary.pages} pages in ${summary.locales.length} locales (${summary.locales.join(', ')}) into ${options.outDir}/ in ${summary.ms} ms` +
        `${summary.warnings ? `, ${summary.warnings} warning${summary.warnings === 1 ? '' : 's'}` : ''}.` +
        `${fallbackText.length ? ` ${fallbackText.join('; ')}.` : ''}\n`,
    );
  }
  return summary;
}
