/**
 * `pybook serve` as a child process on the site the global setup built. The CLI runs from
 * src/ through tsx (the same `main` that bin/pybook.js loads from dist/), so the test checks
 * the current sources rather than whatever dist/ was last compiled from.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import zlib from 'node:zlib';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { BASE_PATH, builtSiteDir } from '../helpers/browser.js';
import { chapter, createFixtureBook } from '../fixtures/fixture-book.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = `import { main } from './src/cli/index.ts'; await main(['node', 'pybook', ...process.argv.slice(1)]);`;
/**
 * The compiler options tsx compiles src/ with, named outright: tsx applies a tsconfig only to the
 * files it includes, and without `"jsx": "react-jsx"` the theme's components compile to
 * React.createElement and rendering a page fails ("React is not defined"). tsconfig.json includes
 * src/ for that reason too; this keeps the test independent of it.
 */
const TSX_TSCONFIG = path.join(root, 'tsconfig.base.json');

interface Cli {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: Cli[] = [];

function pybook(...args: string[]): Cli {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', ENTRY, ...args], {
    cwd: root,
    env: { ...process.env, TSX_TSCONFIG_PATH: TSX_TSCONFIG },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const cli = { child, output: () => output, exit };
  running.push(cli);
  return cli;
}

/** Resolves with the URL `pybook serve` prints once it listens. */
async function servedUrl(cli: Cli): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const match = /Serving \S+ at (http:\/\/\S+?) \(Ctrl\+C to stop\)/.exec(cli.output());
    if (match) return match[1];
    if (cli.child.exitCode !== null) throw new Error(`pybook serve exited early:\n${cli.output()}`);
    if (Date.now() > deadline) throw new Error(`pybook serve printed no URL:\n${cli.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'pybook-serve-test-'));

afterEach(async () => {
  for (const cli of running.splice(0)) {
    if (cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.child.kill('SIGKILL');
      await cli.exit;
    }
  }
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('pybook serve', () => {
  it('prints its URL, serves the base path, redirects / there, and stops on Ctrl+C (despite an open keep-alive connection) with exit code 0', async () => {
    const cli = pybook('serve', '--dir', builtSiteDir(), '--port', '0');
    const url = await servedUrl(cli);
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+${BASE_PATH}$`));

    const home = await fetch(url);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toContain('text/html');
    expect(await home.text()).toContain('Python guide for JavaScript engineers');

    const chapter = await fetch(`${url}hello-world/`);
    expect(chapter.status).toBe(200);

    const rootRequest = await fetch(new URL('/', url), { redirect: 'manual' });
    expect([301, 302, 307, 308]).toContain(rootRequest.status);
    expect(new URL(rootRequest.headers.get('location')!, url).pathname).toBe(BASE_PATH);

    // A browser's keep-alive connection must not hold the shutdown open.
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`GET ${BASE_PATH} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`);
    await new Promise((resolve) => socket.once('data', resolve));

    const started = Date.now();
    cli.child.kill('SIGINT');
    const { code } = await cli.exit;
    socket.destroy();
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('refuses a folder that has not been built, naming `npx pybook build`, with a non-zero exit', async () => {
    const empty = mkdtempSync(path.join(scratch, 'unbuilt-'));
    const cli = pybook('serve', '--dir', empty, '--port', '0');
    const { code } = await cli.exit;
    expect(code).not.toBe(0);
    expect(cli.output()).toContain('npx pybook build');
    expect(cli.output()).toContain(empty);
    expect(cli.output()).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });

  it('says so clearly when the port is in use', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const { port } = blocker.address() as AddressInfo;
    try {
      const cli = pybook('serve', '--dir', builtSiteDir(), '--port', String(port));
      const { code } = await cli.exit;
      expect(code).not.toBe(0);
      expect(cli.output()).toContain(`Port ${port}`);
      expect(cli.output()).toContain('already in use');
      expect(cli.output()).toContain('--port');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  // A cold build that compresses Pyodide's 13 MB takes minutes on a loaded 2-core machine.
  it(
    "sends what `pybook build --precompress` wrote: the wasm's brotli sibling, and a range of it",
    { timeout: 300_000 },
    async () => {
      const book = await createFixtureBook({ chapters: { en: { intro: chapter('Intro', 'Hello.') } } });
      onTestFinished(() => rmSync(book.root, { recursive: true, force: true }));
      const outDir = path.join(scratch, 'precompressed-site');
      const build = pybook('build', '--config', book.configPath, '--out-dir', outDir, '--precompress');
      expect((await build.exit).code, build.output()).toBe(0);
      const pyodideDir = readdirSync(path.join(outDir, 'assets')).find((name) => name.startsWith('pyodide-'))!;
      const wasmFile = path.join(outDir, 'assets', pyodideDir, 'pyodide.asm.wasm');
      const wasm = readFileSync(wasmFile);
      expect(zlib.brotliDecompressSync(readFileSync(`${wasmFile}.br`)).equals(wasm)).toBe(true);
      expect(zlib.gunzipSync(readFileSync(path.join(outDir, 'intro', 'index.html.gz'))).toString()).toContain('Hello.');

      const cli = pybook('serve', '--dir', outDir, '--config', book.configPath, '--port', '0');
      const url = `${await servedUrl(cli)}assets/${pyodideDir}/pyodide.asm.wasm`;
      const brotli = await fetch(url, { headers: { 'Accept-Encoding': 'br' } });
      expect(brotli.headers.get('content-encoding')).toBe('br');
      expect(Buffer.from(await brotli.arrayBuffer()).equals(wasm)).toBe(true);
      const range = await fetch(url, { headers: { 'Accept-Encoding': 'identity', Range: 'bytes=1000-1999' } });
      expect(range.status).toBe(206);
      expect(Buffer.from(await range.arrayBuffer()).equals(wasm.subarray(1000, 2000))).toBe(true);
    },
  );
});
