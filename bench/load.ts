/**
 * Load benchmark for `pybook serve`: the same request mix against our static
 * server and against two plain serve-handler servers, so a regression in the
 * server shows up as a ratio rather than as a machine-dependent absolute:
 * - `npx serve`'s own set-up, the `compression` middleware in front of serve-handler.
 *   It compresses pages as pybook does, so it is the ratio to compare.
 * - serve-handler alone, which sends every file uncompressed (many times the bytes).
 *
 *   node --import tsx bench/load.ts [siteDir]     (default: build)
 *
 * Exits non-zero when any request errors, times out or is not 2xx.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import compression from 'compression';
import { startStaticServer } from '../src/server/static-server.js';

// autocannon and serve-handler ship no type declarations; describe the parts used here.
interface AutocannonHistogram {
  average: number;
  p99: number;
}
interface AutocannonResult {
  requests: AutocannonHistogram & { total: number };
  latency: AutocannonHistogram;
  throughput: AutocannonHistogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  duration: number;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  amount: number;
  workers?: number;
  timeout?: number;
  headers?: Record<string, string>;
  requests: { method: 'GET'; path: string }[];
}
type Autocannon = (options: AutocannonOptions) => Promise<AutocannonResult>;
type ServeHandler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  config: { public: string; directoryListing: boolean },
) => Promise<void>;

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as Autocannon;
const serveHandler = require('serve-handler') as ServeHandler;

const BASE_PATH = '/python-guide-for-javascript-engineers/';
const CONNECTIONS = 50;
const REQUESTS_PER_RUN = 40_000;
const MAX_URLS = 300;
/** Browsers always offer compression; measuring without it would hide our cost of providing it. */
const REQUEST_HEADERS = { 'accept-encoding': 'gzip, deflate, br' };
const ASSET_EXTENSIONS = new Set([
  '.css',
  '.js',
  '.mjs',
  '.json',
  '.svg',
  '.png',
  '.jpg',
  '.webp',
  '.woff2',
  '.ico',
  '.txt',
  '.xml',
]);

export interface ServerFigures {
  requestsPerSecond: number;
  p99LatencyMs: number;
  averageLatencyMs: number;
  totalRequests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  megabytesPerSecond: number;
}

export interface LoadBenchResult {
  siteDir: string;
  syntheticSite: boolean;
  urlCount: number;
  connections: number;
  requestsPerRun: number;
  pybook: ServerFigures;
  /** serve-handler behind the `compression` middleware, as the `serve` CLI runs it by default. */
  serveCli: ServerFigures;
  /** serve-handler alone: no compression. */
  serveHandler: ServerFigures;
  /** pybook requests/s divided by the `serve` CLI set-up's; above 1 means faster. */
  requestsPerSecondRatio: number;
  /** pybook requests/s divided by uncompressed serve-handler's. */
  uncompressedRatio: number;
}

/** Thrown when a run had errors; carries the figures so they can still be printed. */
export class LoadBenchFailure extends Error {
  constructor(
    message: string,
    readonly result: LoadBenchResult,
  ) {
    super(message);
    this.name = 'LoadBenchFailure';
  }
}

async function hasIndexHtml(dir: string): Promise<boolean> {
  return fs.stat(path.join(dir, 'index.html')).then(
    (stats) => stats.isFile(),
    () => false,
  );
}

/** ~50 chapter-sized pages in two locales plus typical hashed assets, for runs before a real build exists. */
async function createSyntheticSite(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pybook-bench-site-'));
  const paragraph =
    '<p>In Python, a <code>dict</code> maps keys to values much like a JavaScript <code>Map</code>; unlike plain objects, keys may be any hashable value.</p>\n';
  const page = (title: string, paragraphs: number): string =>
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><link rel="stylesheet" href="${BASE_PATH}assets/style.4f2a9c1e.css"></head><body><main><h1>${title}</h1>${paragraph.repeat(paragraphs)}</main><script type="module" src="${BASE_PATH}assets/app.9b8e7d6c.js"></script></body></html>`;
  const files = new Map<string, string | Buffer>([
    ['index.html', page('Python guide for JavaScript engineers', 20)],
    ['404.html', page('Page Not Found', 1)],
    ['assets/style.4f2a9c1e.css', '.sidebar a { display: block; padding: 4px 8px; color: #1a5fb4; }\n'.repeat(300)],
    ['assets/app.9b8e7d6c.js', 'export function highlight(node) { node.classList.add("hl"); }\n'.repeat(900)],
    ['assets/chunk-X7KQ2M4P.js', 'export const search = (q) => q.trim().toLowerCase();\n'.repeat(200)],
    [
      'assets/logo.svg',
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${'<circle cx="32" cy="32" r="30"/>'.repeat(40)}</svg>`,
    ],
    ['assets/font.5e6f7a8b.woff2', randomBytes(24 * 1024)],
    [
      'assets/search-index.json',
      JSON.stringify({
        docs: Array.from({ length: 400 }, (_, i) => ({ id: i, title: `Chapter ${i}`, body: paragraph })),
      }),
    ],
  ]);
  for (let chapter = 1; chapter <= 25; chapter += 1) {
    files.set(`chapter-${chapter}/index.html`, page(`Chapter ${chapter}`, 40 + chapter * 4));
    files.set(`zh-cn/chapter-${chapter}/index.html`, page(`第 ${chapter} 章`, 40 + chapter * 4));
  }
  for (const [relativePath, content] of files) {
    await fs.mkdir(path.dirname(path.join(dir, relativePath)), { recursive: true });
    await fs.writeFile(path.join(dir, relativePath), content);
  }
  return dir;
}

/** Site-relative URL paths ('', 'chapter-1/', 'assets/app.js'), pages and assets interleaved. */
async function collectUrlPaths(siteDir: string): Promise<string[]> {
  const pages: string[] = [];
  const assets: string[] = [];
  const entries = await fs.readdir(siteDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const relativePath = path.relative(siteDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (relativePath.split('/').some((part) => part.startsWith('.'))) continue;
    if (entry.name === 'index.html') pages.push(relativePath.slice(0, -'index.html'.length));
    else if (ASSET_EXTENSIONS.has(path.extname(entry.name))) assets.push(relativePath);
  }
  pages.sort();
  assets.sort();
  const mixed: string[] = [];
  for (let i = 0; i < Math.max(pages.length, assets.length); i += 1) {
    if (i < pages.length) mixed.push(pages[i]);
    if (i < assets.length) mixed.push(assets[i]);
  }
  return mixed.slice(0, MAX_URLS).map((urlPath) => urlPath.split('/').map(encodeURIComponent).join('/'));
}

/** serve-handler on a port of its own; `compress` puts the `compression` middleware in front, as `npx serve` does. */
function startServeHandlerServer(
  siteDir: string,
  compress: boolean,
): Promise<{ origin: string; close(): Promise<void> }> {
  const compressWhatFollows = compression();
  const server = http.createServer((req, res) => {
    const serve = () =>
      void serveHandler(req, res, { public: siteDir, directoryListing: false }).catch(() => res.destroy());
    if (compress)
      compressWhatFollows(
        req as Parameters<typeof compressWhatFollows>[0],
        res as Parameters<typeof compressWhatFollows>[1],
        serve,
      );
    else serve();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** One pass over every URL so neither server is measured on a cold cache. */
async function warmUp(origin: string, prefix: string, urlPaths: readonly string[]): Promise<void> {
  for (const urlPath of urlPaths) {
    const response = await fetch(`${origin}${prefix}${urlPath}`, { headers: REQUEST_HEADERS, redirect: 'manual' });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`warm-up: ${prefix}${urlPath} answered ${response.status}`);
  }
}

async function measure(origin: string, prefix: string, urlPaths: readonly string[]): Promise<ServerFigures> {
  await warmUp(origin, prefix, urlPaths);
  const result = await autocannon({
    url: origin,
    connections: CONNECTIONS,
    amount: REQUESTS_PER_RUN,
    // The load generator runs in a worker thread so it does not share the server's event loop.
    workers: 1,
    timeout: 10,
    headers: REQUEST_HEADERS,
    requests: urlPaths.map((urlPath) => ({ method: 'GET', path: `${prefix}${urlPath}` })),
  });
  return {
    // requests.average is a mean of whole-second samples, too coarse for runs of a few seconds.
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    p99LatencyMs: result.latency.p99,
    averageLatencyMs: result.latency.average,
    totalRequests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    megabytesPerSecond: Math.round((result.throughput.average / 1e6) * 10) / 10,
  };
}

function failuresOf(name: string, figures: ServerFigures): string[] {
  const problems: string[] = [];
  if (figures.errors > 0) problems.push(`${name}: ${figures.errors} errors`);
  if (figures.timeouts > 0) problems.push(`${name}: ${figures.timeouts} timeouts`);
  if (figures.non2xx > 0) problems.push(`${name}: ${figures.non2xx} non-2xx responses`);
  if (figures.totalRequests < REQUESTS_PER_RUN)
    problems.push(`${name}: only ${figures.totalRequests} of ${REQUESTS_PER_RUN} requests completed`);
  return problems;
}

/** Measures a server that was just started, then closes it, whatever happened. */
async function measureThenClose(
  server: { origin: string; close(): Promise<void> },
  prefix: string,
  urlPaths: readonly string[],
): Promise<ServerFigures> {
  try {
    return await measure(server.origin, prefix, urlPaths);
  } finally {
    await server.close();
  }
}

export async function runLoadBench(siteDir = 'build'): Promise<LoadBenchResult> {
  const requestedDir = path.resolve(siteDir);
  const syntheticSite = !(await hasIndexHtml(requestedDir));
  const dir = syntheticSite ? await createSyntheticSite() : requestedDir;
  try {
    const urlPaths = await collectUrlPaths(dir);
    const pybookServer = await startStaticServer({ dir, basePath: BASE_PATH, port: 0, log: () => {} });
    const pybook = await measureThenClose(
      { origin: new URL(pybookServer.url).origin, close: () => pybookServer.close() },
      BASE_PATH,
      urlPaths,
    );
    const serveCli = await measureThenClose(await startServeHandlerServer(dir, true), '/', urlPaths);
    const serveHandlerFigures = await measureThenClose(await startServeHandlerServer(dir, false), '/', urlPaths);
    const ratio = (baseline: ServerFigures) =>
      Math.round((pybook.requestsPerSecond / baseline.requestsPerSecond) * 100) / 100;
    const result: LoadBenchResult = {
      siteDir: syntheticSite ? `${dir} (synthetic; ${requestedDir} has no index.html)` : dir,
      syntheticSite,
      urlCount: urlPaths.length,
      connections: CONNECTIONS,
      requestsPerRun: REQUESTS_PER_RUN,
      pybook,
      serveCli,
      serveHandler: serveHandlerFigures,
      requestsPerSecondRatio: ratio(serveCli),
      uncompressedRatio: ratio(serveHandlerFigures),
    };
    const problems = [
      ...failuresOf('pybook', pybook),
      ...failuresOf('serve', serveCli),
      ...failuresOf('serve-handler', serveHandlerFigures),
    ];
    if (problems.length > 0) throw new LoadBenchFailure(`Load bench failed: ${problems.join('; ')}`, result);
    return result;
  } finally {
    if (syntheticSite) await fs.rm(dir, { recursive: true, force: true });
  }
}

export function formatLoadBenchTable(result: LoadBenchResult): string {
  const rows: [string, ServerFigures][] = [
    ['pybook serve', result.pybook],
    ['serve (compression + serve-handler)', result.serveCli],
    ['serve-handler, uncompressed', result.serveHandler],
  ];
  const header = ['server', 'req/s', 'p99 ms', 'avg ms', 'MB/s', 'requests', 'errors', 'timeouts', 'non-2xx'];
  const lines = rows.map(([name, f]) => [
    name,
    String(f.requestsPerSecond),
    String(f.p99LatencyMs),
    f.averageLatencyMs.toFixed(2),
    String(f.megabytesPerSecond),
    String(f.totalRequests),
    String(f.errors),
    String(f.timeouts),
    String(f.non2xx),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const format = (cells: string[]): string => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ');
  return [
    `site: ${result.siteDir}`,
    `${result.urlCount} URLs, ${result.connections} connections, ${result.requestsPerRun} requests per server`,
    format(header),
    format(widths.map((width) => '-'.repeat(width))),
    ...lines.map(format),
    `ratio of req/s, pybook / serve: ${result.requestsPerSecondRatio} (both compress); pybook / uncompressed serve-handler: ${result.uncompressedRatio}`,
  ].join('\n');
}

async function main(): Promise<void> {
  try {
    const result = await runLoadBench(process.argv[2] ?? 'build');
    console.log(JSON.stringify(result));
    console.log(formatLoadBenchTable(result));
  } catch (error) {
    if (error instanceof LoadBenchFailure) {
      console.log(JSON.stringify(error.result));
      console.log(formatLoadBenchTable(error.result));
    }
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
